package org.openmft.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Originator;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * What a transfer request costs the command thread: the hardened {@link RequestParser} on a
 * typical request (metadata, a job name, a reply queue, binary items with MD5) of one item and of
 * a thousand, from bytes as they arrive in a BytesMessage and from a String as in a TextMessage (the
 * CLI sends one), and {@link DocumentWriter} writing it as the CLI does. Throughput in requests per
 * second, times {@code items} for items per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RequestParsingBenchmark {
    /** Items in the request. */
    @Param({"1", "1000"})
    public int items;

    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();
    private TransferRequest request;
    private String xml;
    private byte[] xmlBytes;

    @Setup
    public void setUp() throws MalformedRequestException {
        prepare();
        verify(items);
    }

    /** The request and its XML. */
    void prepare() {
        request = request(items);
        xml = writer.write(request);
        xmlBytes = xml.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Each measured path must give back the request: parsed from bytes and from text, with
     * {@code expectedItems} items, and written as XML that parses to it again.
     */
    void verify(int expectedItems) throws MalformedRequestException {
        for (CommandDocument parsed : List.of(parseBytes(), parseString(), parser.parse(write()))) {
            SelfCheck.equal("items parsed", expectedItems, parsed instanceof TransferRequest t
                    ? t.transferSet().items().size() : -1);
            SelfCheck.equal("the request parsed", request, parsed);
        }
    }

    @Benchmark
    public CommandDocument parseBytes() throws MalformedRequestException {
        return parser.parse(xmlBytes);
    }

    @Benchmark
    public CommandDocument parseString() throws MalformedRequestException {
        return parser.parse(xml);
    }

    @Benchmark
    public String write() {
        return writer.write(request);
    }

    private static TransferRequest request(int items) {
        List<TransferItem> list = new ArrayList<>();
        for (int i = 1; i <= items; i++) {
            list.add(new TransferItem(org.openmft.xml.Mode.BINARY, ChecksumMethod.MD5,
                    new ItemSource(false, Disposition.LEAVE, "/data/outbound/payments/batch-" + i + ".dat", null),
                    new ItemDestination(DestinationType.FILE, ExistAction.OVERWRITE,
                            "/data/inbound/payments/batch-" + i + ".dat", null, null)));
        }
        return new TransferRequest("6.00", new Originator("host01.example.com", "mqmft", null),
                new AgentRef("AGENT_SRC", "QM1"), new AgentRef("AGENT_DST", "QM2"),
                new ReplyTo("REPLY.QUEUE", "QM1", false),
                new TransferSet(5, null, Map.of("department", "payments", "batch", "20261122-01"), list),
                "nightly-payments");
    }
}
