package org.openmft.bench.report;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * The result files' CSV, written and read with Apache Commons CSV: RFC 4180 (a field holding a
 * comma, a quote or a line end is quoted, quotes doubled), a header line, LF line ends. Unknown
 * numbers are empty fields ({@link ResultFiles#num}).
 */
public final class CsvTable {
    private static final CSVFormat WRITE = CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get();
    private static final CSVFormat READ = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    private CsvTable() {
    }

    /** The header, then one line per row; a null field is written empty. */
    public static String write(List<String> header, List<? extends List<?>> rows) {
        StringBuilder sb = new StringBuilder();
        try (CSVPrinter p = new CSVPrinter(sb, WRITE)) {
            p.printRecord(header);
            for (List<?> row : rows) {
                p.printRecord(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sb.toString();
    }

    /** The records of {@code csv} after its header line, their fields by column name. */
    public static List<CSVRecord> read(String csv) {
        try {
            return READ.parse(new StringReader(csv)).getRecords();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
