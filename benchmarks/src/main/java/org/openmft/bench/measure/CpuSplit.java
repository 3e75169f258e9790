package org.openmft.bench.measure;

import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

/**
 * The CPU of one timed run, being measured since it started: {@link #stop} ends the measurement and
 * splits what was spent between the source side, the destination side and the queue managers.
 */
public interface CpuSplit {
    /** Stops measuring and returns the split. */
    FileShapeRun.Cpu stop();
}
