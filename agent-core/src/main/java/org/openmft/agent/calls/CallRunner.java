package org.openmft.agent.calls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.openmft.xml.CallType;
import org.openmft.xml.ProgramCall;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs program calls as IBM's agents do, within bounds:
 * <ul>
 * <li>the program must be on the {@link CommandPath}; a refused call runs nothing;</li>
 * <li>it runs without a shell (its arguments reach it as they are: nothing in them is interpreted),
 *     in the directory that holds it, with the agent's environment and no standard input;</li>
 * <li>an attempt whose return code is not among the call's success codes is tried again up to
 *     {@code retryCount} times, {@code retryWait} seconds apart;</li>
 * <li>standard output and error are kept up to {@code maxCommandOutputSize} bytes together; a
 *     program that writes more is ended (IBM's BFGCR0004E), as is one that runs longer than
 *     {@code openmft.callTimeout} or whose transfer is cancelled (BFGCR0002I); those attempts are
 *     errors and not retried.</li>
 * </ul>
 * Thread-safe: each {@link #run} uses its own process and two reader threads of its own.
 */
public final class CallRunner {
    private static final Logger log = LoggerFactory.getLogger(CallRunner.class);
    private static final long POLL_MILLIS = 50;
    private static final long READER_JOIN_MILLIS = 5000;

    private final CommandPath path;
    private final int maxOutputBytes;
    private final Duration timeout;

    /**
     * @param path where programs may come from
     * @param maxOutputBytes {@code maxCommandOutputSize}
     * @param timeout {@code openmft.callTimeout}, per attempt
     */
    public CallRunner(CommandPath path, int maxOutputBytes, Duration timeout) {
        this.path = path;
        this.maxOutputBytes = maxOutputBytes;
        this.timeout = timeout;
    }

    /** {@code openmft.callTimeout}: how long one attempt may run. */
    public Duration timeout() {
        return timeout;
    }

    /** A runner that refuses every call, for agents and tests without a {@code commandPath}. */
    public static CallRunner none() {
        return new CallRunner(CommandPath.none(), 10240, Duration.ofHours(1));
    }

    /**
     * Whether a call would be run at all, checked before it is accepted (a managed call): its type
     * and its program's place on the {@code commandPath}. Nothing is run.
     *
     * @throws CallRefusedException naming why not
     */
    public void check(ProgramCall call) throws CallRefusedException {
        if (call.type() != CallType.EXECUTABLE) {
            throw new CallRefusedException("a call of type " + call.type().xml() + " is not supported");
        }
        path.resolve(call.name());
    }

    /**
     * Runs a call with its retries on the calling thread.
     *
     * @param call what to run
     * @param cancelled polled while the program runs and between attempts: true ends it
     * @return the outcome; never throws for the program's sake
     * @throws InterruptedException if the calling thread is interrupted (the program is ended first)
     */
    public CallResult run(ProgramCall call, BooleanSupplier cancelled) throws InterruptedException {
        if (call.type() != CallType.EXECUTABLE) {
            return CallResult.error("a call of type " + call.type().xml() + " is not supported");
        }
        Path program;
        try {
            program = path.resolve(call.name());
        } catch (CallRefusedException e) {
            log.warn("{}", e.getMessage());
            return CallResult.error(e.getMessage());
        }
        int retries = 0;
        while (true) {
            Attempt a = attempt(program, call, cancelled);
            if (a.error != null) {
                return new CallResult(CallResult.Outcome.ERROR, retries, a.returnCode, a.stdout, a.stderr, a.error);
            }
            if (call.successCodes().accepts(a.returnCode)) {
                return new CallResult(CallResult.Outcome.SUCCESS, retries, a.returnCode, a.stdout, a.stderr, null);
            }
            if (retries >= call.retryCount()) {
                return new CallResult(CallResult.Outcome.FAILURE, retries, a.returnCode, a.stdout, a.stderr, null);
            }
            retries++;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(call.retryWaitSeconds());
            while (System.nanoTime() < end) {
                if (cancelled.getAsBoolean()) {
                    return new CallResult(CallResult.Outcome.ERROR, retries - 1, a.returnCode, a.stdout, a.stderr,
                            "BFGCR0002I: Execution of command '" + call.name() + "' has been ended by a cancel"
                                    + " transfer request.");
                }
                TimeUnit.MILLISECONDS.sleep(Math.min(POLL_MILLIS,
                        Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
            }
        }
    }

    private record Attempt(Integer returnCode, List<String> stdout, List<String> stderr, String error) {}

    private Attempt attempt(Path program, ProgramCall call, BooleanSupplier cancelled) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(call.arguments());
        ProcessBuilder builder = new ProcessBuilder(command).directory(program.getParent().toFile());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return new Attempt(null, List.of(), List.of(), "the command '" + call.name() + "' could not be started: "
                    + e.getMessage());
        }
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            log.debug("Closing the standard input of {}: {}", program, e.toString());
        }
        AtomicLong budget = new AtomicLong(maxOutputBytes);
        Capture out = new Capture(process.getInputStream(), budget, process);
        Capture err = new Capture(process.getErrorStream(), budget, process);
        Thread outReader = reader(out, "stdout");
        Thread errReader = reader(err, "stderr");
        String error = null;
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (cancelled.getAsBoolean()) {
                    error = "BFGCR0002I: Execution of command '" + call.name() + "' has been ended by a cancel"
                            + " transfer request.";
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    error = "the command '" + call.name() + "' did not end within " + timeout.toSeconds()
                            + " seconds (openmft.callTimeout) and was ended";
                    break;
                }
            }
        } finally {
            if (process.isAlive()) {
                end(process);
            }
        }
        // A program that left something running in the background with its output open does not
        // hold the call: its readers are given a few seconds, then what they have is taken (they
        // end, as daemons, when the pipe closes). Only a program ended for its time, its output or
        // a cancel has its descendants ended too.
        outReader.join(READER_JOIN_MILLIS);
        errReader.join(READER_JOIN_MILLIS);
        if (out.overflowed || err.overflowed) {
            error = "BFGCR0004E: Execution of command '" + call.name() + "' has ended because it output more data"
                    + " than the maximum permitted amount of " + maxOutputBytes + " bytes.";
        }
        Integer rc = error == null ? Integer.valueOf(process.exitValue()) : null;
        return new Attempt(rc, out.lines(), err.lines(), error);
    }

    private static void end(Process process) throws InterruptedException {
        kill(process);
        process.waitFor(READER_JOIN_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Kills a program and what it started: the program first, so that a script cannot take its next
     * step (a {@code touch} after a killed {@code sleep}), then its descendants as they were before
     * it died (once it is gone they are no longer its descendants).
     */
    private static void kill(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    private static Thread reader(Capture capture, String stream) {
        Thread t = new Thread(capture, "openmft-call-" + stream);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Reads one stream, keeping what the shared budget allows; past it, ends the program. */
    private static final class Capture implements Runnable {
        private final InputStream in;
        private final AtomicLong budget;
        private final Process process;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private volatile boolean overflowed;

        Capture(InputStream in, AtomicLong budget, Process process) {
            this.in = in;
            this.budget = budget;
            this.process = process;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    long left = budget.addAndGet(-n);
                    if (left < 0) {
                        int keep = (int) Math.max(0, n + left);
                        synchronized (kept) {
                            kept.write(buffer, 0, keep);
                        }
                        overflowed = true;
                        kill(process);
                        return;
                    }
                    synchronized (kept) {
                        kept.write(buffer, 0, n);
                    }
                }
            } catch (IOException e) {
                // The stream closed as the process was ended: what was read is kept.
            }
        }

        List<String> lines() {
            String text;
            synchronized (kept) {
                text = kept.toString(Charset.defaultCharset());
            }
            if (text.isEmpty()) {
                return List.of();
            }
            List<String> lines = new ArrayList<>(text.lines().toList());
            return lines;
        }
    }
}
