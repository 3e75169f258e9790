package org.openmft.agent.transfer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The programs of the program-call tests ({@code ProgramCallIT}, {@code ManagedCallIT}): shell
 * scripts in a {@code commandPath} directory {@code cmds}, which leave their marks in {@code marks},
 * and one outside the path ({@code outside/evil.sh}, which must never run); beside them
 * {@code in.txt} and an {@code out} directory for transfers.
 * <ul>
 * <li>{@code record.sh(name,args...)}: writes each argument to {@code marks/name}, one per line, prints
 *     {@code out:args} and {@code err line}, exits with {@code $RC} (0);</li>
 * <li>{@code flaky.sh}: fails with 3 until its second run (retries);</li>
 * <li>{@code fail.sh}: prints {@code failing} on standard error, exits with 1;</li>
 * <li>{@code hold.sh(name)}: counts its runs in {@code marks/name.count}, touches
 *     {@code marks/name.running}, and runs until the test makes {@code marks/name.open} (30 s at most).</li>
 * </ul>
 */
final class CallScripts {
    final Path cmds;
    final Path marks;

    CallScripts(Path dir) throws IOException {
        cmds = Files.createDirectories(dir.resolve("cmds"));
        marks = Files.createDirectories(dir.resolve("marks"));
        script(cmds.resolve("record.sh"), "m=" + marks + "/$1; shift; for a in \"$@\"; do echo \"$a\" >> \"$m\"; done;"
                + " touch \"$m\"; echo \"out:$*\"; echo \"err line\" >&2; exit ${RC:-0}");
        script(cmds.resolve("flaky.sh"), "n=" + marks + "/flaky.count; echo x >> \"$n\"; c=$(wc -l < \"$n\");"
                + " [ \"$c\" -ge 2 ] && exit 0; exit 3");
        script(cmds.resolve("fail.sh"), "echo failing >&2; exit 1");
        script(cmds.resolve("hold.sh"), "echo x >> " + marks + "/$1.count; touch " + marks + "/$1.running; i=0;"
                + " while [ ! -f " + marks + "/$1.open ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; exit 0");
        Path outside = Files.createDirectories(dir.resolve("outside"));
        script(outside.resolve("evil.sh"), "touch " + marks + "/evil; exit 0");
        Files.createDirectories(dir.resolve("out"));
        Files.writeString(dir.resolve("in.txt"), "payload");
    }

    /** Writes an executable shell script. */
    static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }
}
