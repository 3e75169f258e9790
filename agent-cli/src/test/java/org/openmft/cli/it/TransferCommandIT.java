package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transfers driven through the real launchers: a request document submitted with
 * {@code mft transfer submit -w}, agents in the queue manager's process or in their own.
 */
class TransferCommandIT {
    @TempDir
    Path data;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        mft.close();
    }

    /** @param alsoAllowed directories beside {@code data} the agents may read and write */
    void setUp(String jvmOptions, boolean client, Path... alsoAllowed) {
        mft = new Distribution(data).jvmOptions(jvmOptions);
        int port = mft.createQueueManager("QM1");
        java.util.List<String> sandbox = new java.util.ArrayList<>(java.util.List.of("--sandbox-dir", data.toString()));
        for (Path dir : alsoAllowed) {
            sandbox.addAll(java.util.List.of("--sandbox-dir", dir.toString()));
        }
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("-agentName", agent,
                    "-agentQMgr", "QM1"));
            if (client) {
                args.addAll(java.util.List.of("-agentQMgrHost", "127.0.0.1", "-agentQMgrPort", String.valueOf(port)));
            }
            args.addAll(sandbox);
            mft.run("fteCreateAgent", args.toArray(String[]::new)).expect(0);
        }
        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);
    }

    static String md5(Path file) throws Exception {
        MessageDigest d = MessageDigest.getInstance("MD5");
        byte[] b = new byte[1 << 20];
        try (var in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(b)) > 0) {
                d.update(b, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    @Test
    void submitWaitsForTheOutcomeAndExitsWithTheResultCode() throws Exception {
        setUp("-Xmx512m", true);
        Path in = Files.createDirectories(data.resolve("in"));
        Path out = Files.createDirectories(data.resolve("out"));
        Files.writeString(in.resolve("a.txt"), "alpha\n");
        Files.writeString(in.resolve("b.txt"), "beta\n");
        Distribution.Result ok = mft.mft("transfer", "submit", mft.request("ok.xml", in + "/*.txt", out.toString(),
                "directory", "error", true).toString(), "-w", "120").expect(0);
        assertThat(ok.output()).contains("BFGCL0035I", "BFGRP0032I", "a.txt", "b.txt");
        assertThat(out.resolve("b.txt")).hasContent("beta");

        // The same again: every file exists now, so every item fails and the exit code says so.
        Distribution.Result failed = mft.mft("transfer", "submit", mft.request("again.xml", in + "/*.txt",
                out.toString(), "directory", "error", false).toString(), "-w", "120").expect(40);
        assertThat(failed.output()).contains("BFGIO0006E");

        // Without -w the command returns once the agent has the request.
        Path nowait = mft.request("nowait.xml", in + "/a.txt", out.resolve("c.txt").toString(), "file", "error", false);
        assertThat(mft.mft("transfer", "submit", nowait.toString()).expect(0).output()).contains("request ID is");
        Distribution.await("the unattended transfer", java.time.Duration.ofSeconds(60),
                () -> Files.exists(out.resolve("c.txt")));
    }

    @Test
    void anInvalidRequestFileIsRefusedBeforeAnythingIsSent() throws Exception {
        mft = new Distribution(data);
        Path bad = data.resolve("bad.xml");
        Files.writeString(bad, "<request version=\"6.00\"><managedTransfer><oops/></managedTransfer></request>");
        Distribution.Result r = mft.mft("transfer", "submit", bad.toString()).expect(1);
        assertThat(r.output()).contains("bad.xml", "nothing was sent");
        assertThat(mft.mft("transfer", "submit", data.resolve("missing.xml").toString()).expect(1).output())
                .contains("does not exist");
    }

    /** The big file: 2.25 GiB. */
    private static final long SIZE = (2L << 30) + (256L << 20);

    @Test
    void moreThanTwoGibibytesPassThroughAQueueManagerAndBothAgentsIn256MegabytesOfHeap() throws Exception {
        Path in = Files.createDirectories(data.resolve("in"));
        // What is measured is memory, not the disk: the file lands in RAM (tmpfs) where there is
        // one, so a slow disk cannot stretch the test. 2.25 GiB: past 2^31 bytes (offsets and sizes
        // that overflow an int) and nine times the heap.
        Path shm = Path.of("/dev/shm");
        Path out = Files.isDirectory(shm) && Files.isWritable(shm) && shm.toFile().getUsableSpace() > (4L << 30)
                ? Files.createTempDirectory(shm, "openmft-it") : Files.createDirectories(data.resolve("out"));
        setUp("-Xmx256m", false, out);
        Path big = in.resolve("big.bin");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            // Sparse, so the test machine needs no such writes to make it; a few non-zero
            // blocks make misplaced chunks visible to the checksum.
            f.setLength(SIZE);
            for (long pos = 0; pos < SIZE; pos += 256L << 20) {
                f.seek(pos + 12345);
                f.writeLong(pos);
            }
        }
        try {
            Path request = mft.request("big.xml", big.toString(), out.resolve("big.bin").toString(), "file", "error",
                    false);
            mft.run(java.time.Duration.ofMinutes(16), "mft", "transfer", "submit", request.toString(), "-w", "900")
                    .expect(0);
            assertThat(Files.size(out.resolve("big.bin"))).isEqualTo(SIZE);
            assertThat(md5(out.resolve("big.bin"))).isEqualTo(md5(big));
        } finally {
            Files.deleteIfExists(out.resolve("big.bin"));
            Files.deleteIfExists(out.resolve("big.bin.part"));
            if (out.startsWith(shm)) {
                Files.deleteIfExists(out);
            }
        }
        Path qmLog = data.resolve("logs/qmgrs/QM1/output0.log");
        assertThat(Files.readString(qmLog)).doesNotContain("OutOfMemoryError");
    }
}
