package org.openmft.bench.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSV resources of IBM's figures: lines starting with # are comments, blank lines are skipped,
 * the first other line is the header, every row has exactly its number of fields (the last may
 * hold commas: it is the free-text "where").
 */
public final class FigureCsv {
    private FigureCsv() {
    }

    /** A row by its fields, turned into a figure; an IllegalArgumentException says what is wrong with it. */
    public interface RowReader<T> {
        public T read(String[] fields);
    }

    /** Every row of {@code in}, read by {@code reader}; an error names {@code resource} and the line. */
    public static <T> List<T> read(InputStream in, String resource, int fields, RowReader<T> reader) throws IOException {
        List<T> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            boolean header = true;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                String[] f = line.split(",", fields);
                if (f.length != fields) {
                    throw new IOException(resource + " line " + n + ": " + fields + " fields expected, not " + f.length);
                }
                try {
                    out.add(reader.read(f));
                } catch (IllegalArgumentException e) {
                    throw new IOException(resource + " line " + n + ": " + e.getMessage(), e);
                }
            }
        }
        return List.copyOf(out);
    }
}
