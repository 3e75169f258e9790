package org.openmft.agent.transfer.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileErrorsTest {
    @TempDir
    Path dir;

    @Test
    void theOperatingSystemsReasonWinsWhenJavaKeptIt() {
        assertEquals("Operation not permitted",
                FileErrors.reason(new FileSystemException("/out/a.part", null, "Operation not permitted")));
        assertEquals("Read-only file system",
                FileErrors.reason(new AccessDeniedException("/out/a.part", null, "Read-only file system")));
    }

    @Test
    void errorsJavaReportsOnlyByTypeGetTheirUsualWordsAndNotTheFileNameAgain() {
        assertEquals("Permission denied", FileErrors.reason(new AccessDeniedException("/in/secret.bin")));
        assertEquals("No such file or directory", FileErrors.reason(new NoSuchFileException("/in/gone.bin")));
        assertEquals("File exists", FileErrors.reason(new FileAlreadyExistsException("/out/a.bin")));
    }

    @Test
    void plainIoErrorsKeepTheirMessageOrTheirType() {
        // What FileChannel.write throws when the disk is full.
        assertEquals("No space left on device", FileErrors.reason(new IOException("No space left on device")));
        assertEquals("ClosedChannelException", FileErrors.reason(new ClosedChannelException()));
    }

    @Test
    void aRealMissingFileIsDescribedWithoutItsName() {
        Path missing = dir.resolve("nothing-here.bin");
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> java.nio.file.Files.size(missing));
        assertEquals("No such file or directory", FileErrors.reason(e));
    }
}
