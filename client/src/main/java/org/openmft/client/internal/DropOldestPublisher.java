package org.openmft.client.internal;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Flow.Publisher} whose subscribers each have a buffer of at most {@code capacity} items:
 * when a subscriber has not asked for (or not yet taken) that many, the oldest waiting item is
 * dropped for the new one, so a slow subscriber sees the newest items and never makes memory grow.
 * The publishing thread never blocks and never runs a subscriber's code: items are delivered on
 * {@code executor}, one at a time per subscriber, in order. A subscriber that arrives late first
 * receives the newest item published before it (if any, and if not yet terminated).
 *
 * <p>Internal to OpenMFT; not part of the public API. Thread-safe.
 *
 * @param <T> the items
 */
public final class DropOldestPublisher<T> implements Flow.Publisher<T> {
    private final int capacity;
    private final Executor executor;
    private final List<Delivery> subscribers = new CopyOnWriteArrayList<>();
    private T newest;
    /** Set once: null while open, {@link #COMPLETED} or the error. */
    private Throwable terminal;
    private static final Throwable COMPLETED = new Throwable("completed", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    /**
     * A publisher delivering on the common pool (or a thread per delivery when the pool has one thread).
     *
     * @param capacity the largest number of items waiting for one subscriber, at least 1
     */
    public DropOldestPublisher(int capacity) {
        this(capacity, ForkJoinPool.getCommonPoolParallelism() > 1 ? ForkJoinPool.commonPool() : r -> {
            Thread t = new Thread(r, "openmft-progress-delivery");
            t.setDaemon(true);
            t.start();
        });
    }

    /**
     * A publisher delivering on {@code executor}.
     *
     * @param capacity the largest number of items waiting for one subscriber, at least 1
     * @param executor runs the deliveries
     */
    public DropOldestPublisher(int capacity, Executor executor) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " is less than 1");
        }
        this.capacity = capacity;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Delivery d = new Delivery(Objects.requireNonNull(subscriber, "subscriber"));
        synchronized (this) {
            if (terminal == null) {
                subscribers.add(d);
                if (newest != null) {
                    d.offer(newest);
                }
            } else {
                d.end(terminal);
            }
        }
        d.schedule();
    }

    /**
     * Passes {@code item} to every subscriber, dropping the oldest waiting item of a full buffer.
     * Ignored once terminated.
     *
     * @param item the item
     */
    public void publish(T item) {
        Objects.requireNonNull(item, "item");
        synchronized (this) {
            if (terminal != null) {
                return;
            }
            newest = item;
            for (Delivery d : subscribers) {
                d.offer(item);
            }
        }
        subscribers.forEach(Delivery::schedule);
    }

    /** Completes every subscriber once it has taken the items waiting for it; later calls do nothing. */
    public void complete() {
        terminate(COMPLETED);
    }

    /**
     * Fails every subscriber once it has taken the items waiting for it; later calls do nothing.
     *
     * @param error the failure
     */
    public void fail(Throwable error) {
        terminate(Objects.requireNonNull(error, "error"));
    }

    private void terminate(Throwable end) {
        synchronized (this) {
            if (terminal != null) {
                return;
            }
            terminal = end;
            newest = null;
            subscribers.forEach(d -> d.end(end));
        }
        subscribers.forEach(Delivery::schedule);
        subscribers.clear();
    }

    /** One subscriber's buffer, demand and delivery loop. */
    private final class Delivery implements Flow.Subscription, Runnable {
        private final Flow.Subscriber<? super T> subscriber;
        private final ArrayDeque<T> buffer = new ArrayDeque<>();
        private final AtomicInteger work = new AtomicInteger();
        private long demand;
        private boolean subscribed;
        private boolean done;
        private Throwable end;

        Delivery(Flow.Subscriber<? super T> subscriber) {
            this.subscriber = subscriber;
        }

        synchronized void offer(T item) {
            if (done) {
                return;
            }
            if (buffer.size() == capacity) {
                buffer.pollFirst();
            }
            buffer.addLast(item);
        }

        synchronized void end(Throwable e) {
            if (end == null) {
                end = e;
            }
        }

        void schedule() {
            if (work.getAndIncrement() == 0) {
                executor.execute(this);
            }
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                synchronized (this) {
                    // The rule (§3.9): a non-positive request ends the subscription with an error, now.
                    end = new IllegalArgumentException("request(" + n + "): the number requested must be positive");
                    buffer.clear();
                }
            } else {
                synchronized (this) {
                    demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                }
            }
            schedule();
        }

        @Override
        public void cancel() {
            synchronized (this) {
                done = true;
                buffer.clear();
            }
            subscribers.remove(this);
        }

        @Override
        public void run() {
            do {
                drain();
            } while (work.decrementAndGet() != 0);
        }

        private void drain() {
            if (!subscribed) {
                subscribed = true;
                subscriber.onSubscribe(this);
            }
            while (true) {
                T item;
                Throwable ending = null;
                synchronized (this) {
                    if (done) {
                        return;
                    }
                    if (demand > 0 && !buffer.isEmpty()) {
                        item = buffer.pollFirst();
                        demand--;
                    } else if (end != null && buffer.isEmpty()) {
                        item = null;
                        ending = end;
                        done = true;
                    } else {
                        return;
                    }
                }
                if (ending == null) {
                    subscriber.onNext(item);
                } else if (ending == COMPLETED) {
                    subscriber.onComplete();
                    return;
                } else {
                    subscriber.onError(ending);
                    return;
                }
            }
        }
    }
}
