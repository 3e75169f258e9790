package org.openmft.coordination.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class PublicationBufferTest {
    private static int n;

    private static Publication p(Publication.Kind kind) {
        n++;
        return new Publication(kind, "SYSTEM.FTE/x/" + n, "<" + n + "/>", "id" + n);
    }

    @Test
    void statusIsCoalescedAndComesFirst() throws Exception {
        PublicationBuffer b = new PublicationBuffer(100);
        Publication log1 = p(Publication.Kind.LOG);
        b.add(log1);
        b.add(p(Publication.Kind.STATUS));
        Publication newest = p(Publication.Kind.STATUS);
        b.add(newest);
        assertThat(b.size()).isEqualTo(2);
        assertThat(b.take(10, 0)).containsExactly(newest, log1);
    }

    @Test
    void progressIsDroppedBeforeAnyLogRecordAndLogRecordsKeepTheirOrder() throws Exception {
        PublicationBuffer b = new PublicationBuffer(20);
        Publication progress = p(Publication.Kind.PROGRESS);
        b.add(progress);
        for (int i = 0; i < 19; i++) {
            b.add(p(Publication.Kind.LOG));
        }
        // Full: a new log record pushes the progress publication out, not a log record.
        Publication last = p(Publication.Kind.LOG);
        b.add(last);
        assertThat(b.droppedProgress()).isEqualTo(1);
        assertThat(b.droppedLogs()).isZero();
        List<Publication> all = b.take(100, 0);
        assertThat(all).hasSize(20).doesNotContain(progress).endsWith(last);
        // Progress is refused once a tenth of the buffer is in use.
        for (int i = 0; i < 2; i++) {
            b.add(p(Publication.Kind.LOG));
        }
        b.add(p(Publication.Kind.PROGRESS));
        assertThat(b.droppedProgress()).isEqualTo(2);
    }

    @Test
    void aLogRecordThatFindsTheBufferFullOfLogRecordsIsCountedAsDropped() {
        PublicationBuffer b = new PublicationBuffer(10);
        for (int i = 0; i < 11; i++) {
            b.add(p(Publication.Kind.LOG));
        }
        assertThat(b.droppedLogs()).isEqualTo(1);
        assertThat(b.size()).isEqualTo(10);
    }

    @Test
    void unsentPublicationsGoBackToTheHeadInOrder() throws Exception {
        PublicationBuffer b = new PublicationBuffer(100);
        Publication a = p(Publication.Kind.LOG);
        Publication c = p(Publication.Kind.LOG);
        Publication later = p(Publication.Kind.LOG);
        b.add(a);
        b.add(c);
        List<Publication> taken = b.take(10, 0);
        b.add(later);
        b.putBack(taken);
        assertThat(b.take(10, 0)).containsExactly(a, c, later);
    }
}
