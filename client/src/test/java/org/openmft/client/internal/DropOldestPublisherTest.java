package org.openmft.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** The bounded, drop-oldest buffering of progress events, delivered on the calling thread here. */
class DropOldestPublisherTest {
    /** Records what it receives; asks for nothing until told to. */
    static final class Recorder implements Flow.Subscriber<Integer> {
        final List<Integer> items = new ArrayList<>();
        Flow.Subscription subscription;
        boolean completed;
        Throwable error;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
        }

        @Override
        public void onNext(Integer item) {
            items.add(item);
        }

        @Override
        public void onError(Throwable t) {
            error = t;
        }

        @Override
        public void onComplete() {
            completed = true;
        }
    }

    @Test
    void aSubscriberThatAsksForNothingKeepsOnlyTheNewestItems() {
        DropOldestPublisher<Integer> publisher = new DropOldestPublisher<>(16, Runnable::run);
        Recorder slow = new Recorder();
        Recorder fast = new Recorder();
        publisher.subscribe(slow);
        publisher.subscribe(fast);
        fast.subscription.request(Long.MAX_VALUE);
        slow.subscription.request(1);
        IntStream.rangeClosed(1, 1_000).forEach(publisher::publish);
        publisher.complete();
        assertThat(fast.items).hasSize(1_000);
        assertThat(fast.completed).isTrue();
        // The completion waits until the slow subscriber has taken what waits for it: the newest 16.
        assertThat(slow.items).containsExactly(1);
        assertThat(slow.completed).isFalse();
        slow.subscription.request(Long.MAX_VALUE);
        assertThat(slow.items).hasSize(17).startsWith(1, 985).endsWith(1_000);
        assertThat(slow.completed).isTrue();
    }

    @Test
    void aLateSubscriberGetsTheNewestItemAndTheEnd() {
        DropOldestPublisher<Integer> publisher = new DropOldestPublisher<>(4, Runnable::run);
        publisher.publish(1);
        publisher.publish(2);
        Recorder late = new Recorder();
        publisher.subscribe(late);
        late.subscription.request(10);
        assertThat(late.items).containsExactly(2);
        publisher.fail(new IllegalStateException("lost"));
        assertThat(late.error).hasMessage("lost");
        Recorder after = new Recorder();
        publisher.subscribe(after);
        assertThat(after.items).isEmpty();
        assertThat(after.error).hasMessage("lost");
    }

    @Test
    void aNonPositiveRequestAndACancelEndTheSubscription() {
        DropOldestPublisher<Integer> publisher = new DropOldestPublisher<>(4, Runnable::run);
        Recorder wrong = new Recorder();
        Recorder gone = new Recorder();
        publisher.subscribe(wrong);
        publisher.subscribe(gone);
        publisher.publish(1);
        wrong.subscription.request(0);
        assertThat(wrong.error).isInstanceOf(IllegalArgumentException.class);
        assertThat(wrong.items).isEmpty();
        gone.subscription.cancel();
        gone.subscription.request(5);
        publisher.publish(2);
        publisher.complete();
        assertThat(gone.items).isEmpty();
        assertThat(gone.completed).isFalse();
    }
}
