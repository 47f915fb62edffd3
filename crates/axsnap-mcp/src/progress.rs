//! Progress notifications of a long call: when the client gave a progress token, a call that
//! runs past [`FIRST`] tells it, every [`EVERY`] until it answers, the stage the call is in
//! (what the layers below said last through [`axsnap_core::progress`]).
//!
//! The ticker is a task of its own, not a branch of the call's `select!`: a capture or a
//! rendering of a huge page holds its task for stretches of synchronous work, and the client
//! should hear about it meanwhile. [`Ticker::stop`] returns only once the ticker will send
//! nothing more, so no notification follows the call's answer.
//!
//! `progress` is the time the call has run, in seconds: it increases with every notification
//! (as the specification asks) and means something to a person, while no total is known.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axsnap_core::progress::Progress;
use tokio::sync::Mutex;
use tokio::time::Instant;

/// How long a call runs before its first notification: a fast call sends none.
pub(crate) const FIRST: Duration = Duration::from_secs(1);
/// How often a notification follows while the call runs.
pub(crate) const EVERY: Duration = Duration::from_secs(1);
/// The message while nothing below has said its stage yet.
const WORKING: &str = "working";

/// One notification: the seconds the call has run (strictly increasing) and its stage.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tick {
    pub(crate) progress: f64,
    pub(crate) message: String,
}

/// Sends notifications for one call until stopped.
pub(crate) struct Ticker {
    /// Held while a notification is sent; `true` once stopped.
    stopped: Arc<Mutex<bool>>,
    task: tokio::task::JoinHandle<()>,
}

impl Ticker {
    /// Starts telling `send` the stage of `progress` after [`FIRST`], then every [`EVERY`].
    /// `send` answers whether to go on (`false`: the client is gone).
    pub(crate) fn start<S, F>(progress: Progress, mut send: S) -> Ticker
    where
        S: FnMut(Tick) -> F + Send + 'static,
        F: Future<Output = bool> + Send,
    {
        let stopped = Arc::new(Mutex::new(false));
        let gate = stopped.clone();
        let task = tokio::spawn(async move {
            let began = Instant::now();
            let mut next = began + FIRST;
            let mut last = 0.0;
            loop {
                tokio::time::sleep_until(next).await;
                let stopped = gate.lock().await;
                if *stopped {
                    return;
                }
                let tick = Tick {
                    progress: advance(last, began.elapsed()),
                    message: progress.stage().unwrap_or_else(|| WORKING.to_string()),
                };
                last = tick.progress;
                if !send(tick).await {
                    return;
                }
                drop(stopped);
                next = Instant::now() + EVERY;
            }
        });
        Ticker { stopped, task }
    }

    /// Stops the ticker: once this returns, no notification is sent any more (one being sent
    /// is waited for, so it reaches the client before the call's answer).
    pub(crate) async fn stop(self) {
        *self.stopped.lock().await = true;
        self.task.abort();
    }
}

/// The progress value for a call that has run `elapsed`, after `last`: the seconds, to a
/// tenth, and always above `last`.
fn advance(last: f64, elapsed: Duration) -> f64 {
    let secs = (elapsed.as_secs_f64() * 10.0).round() / 10.0;
    if secs > last {
        secs
    } else {
        last + 0.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex as SyncMutex;

    /// Notifications sent, with when each was sent since the ticker started.
    type Sent = Arc<SyncMutex<Vec<(Duration, Tick)>>>;

    /// A ticker whose notifications land in the returned list.
    fn recording(progress: Progress) -> (Ticker, Sent) {
        let seen = Arc::new(SyncMutex::new(Vec::new()));
        let (sink, began) = (seen.clone(), Instant::now());
        let ticker = Ticker::start(progress, move |tick| {
            sink.lock().unwrap().push((began.elapsed(), tick));
            async { true }
        });
        (ticker, seen)
    }

    #[tokio::test(start_paused = true)]
    async fn a_fast_call_sends_nothing() {
        let (ticker, seen) = recording(Progress::new());
        tokio::time::sleep(Duration::from_millis(900)).await;
        ticker.stop().await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(seen.lock().unwrap().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_long_call_is_told_every_second_with_its_latest_stage_and_nothing_after_the_stop() {
        let progress = Progress::new();
        let (ticker, seen) = recording(progress.clone());
        tokio::time::sleep(Duration::from_millis(1500)).await;
        progress.set("waiting for the page to settle".into());
        tokio::time::sleep(Duration::from_millis(2000)).await;
        ticker.stop().await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        let seen = seen.lock().unwrap();
        let at: Vec<u64> = seen.iter().map(|(t, _)| t.as_secs()).collect();
        assert_eq!(at, vec![1, 2, 3]);
        let messages: Vec<&str> = seen.iter().map(|(_, t)| t.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![WORKING, "waiting for the page to settle", "waiting for the page to settle"]
        );
        assert!(seen.windows(2).all(|w| w[0].1.progress < w[1].1.progress));
    }

    #[tokio::test(start_paused = true)]
    async fn stop_waits_for_a_notification_being_sent() {
        let sent = Arc::new(SyncMutex::new(Vec::new()));
        let sink = sent.clone();
        let ticker = Ticker::start(Progress::new(), move |tick| {
            let sink = sink.clone();
            async move {
                // A slow transport: the write ends well after the stop was asked.
                tokio::time::sleep(Duration::from_millis(700)).await;
                sink.lock().unwrap().push(tick);
                true
            }
        });
        tokio::time::sleep(Duration::from_millis(1200)).await;
        ticker.stop().await;
        assert_eq!(sent.lock().unwrap().len(), 1, "the stop returned before the send ended");
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert_eq!(sent.lock().unwrap().len(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_gone_ends_the_ticker() {
        let calls = Arc::new(SyncMutex::new(0));
        let count = calls.clone();
        let ticker = Ticker::start(Progress::new(), move |_| {
            *count.lock().unwrap() += 1;
            async { false }
        });
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert_eq!(*calls.lock().unwrap(), 1);
        ticker.stop().await;
    }

    #[test]
    fn progress_always_increases() {
        assert_eq!(advance(0.0, Duration::from_millis(1004)), 1.0);
        assert_eq!(advance(1.0, Duration::from_millis(1020)), 1.1);
        assert!(advance(2.5, Duration::from_secs(2)) > 2.5);
    }
}
