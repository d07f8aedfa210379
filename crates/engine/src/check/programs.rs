//! Compiled programs run beside each other, more of them than there are
//! workers, and a time-out judged only from a run alone.
//!
//! Many of a book's programs spend their time asleep (a thread chapter's
//! `sleep`s, an async runtime's timers): run one per worker, a book waits
//! for the sum of their sleeps divided by the workers. So a merged build's
//! programs run [`PER_WORKER`] times as many at once as there are workers
//! ([`width`]), while compiles keep their `jobs` workers. A program that
//! needs the CPU may then get less of it than alone; so a run that reaches
//! its time limit (`timeout` or the hang guard) while another program ran
//! beside it is run again, alone ([`Programs::run`]), and only that run's
//! result is judged: a time-out verdict always comes from a run that had
//! no other program beside it (compiles aside, as before). A program that
//! ends within its limit ended within it whatever ran beside it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Programs run at once per worker of the pool (compiles are one per
/// worker): most of a book's programs end within milliseconds, and those
/// that take long mostly sleep.
pub(super) const PER_WORKER: usize = 8;

/// How many of `count` programs to run at once from a pool of `workers`.
pub(super) fn width(count: usize, workers: usize) -> usize {
    count.min(workers.max(1) * PER_WORKER).max(1)
}

/// Who runs now: the programs running, runs waiting to run alone, and
/// whether one is running alone.
#[derive(Debug, Default)]
struct State {
    running: usize,
    waiting_alone: usize,
    alone: bool,
    /// Programs started so far (to tell whether another started beside
    /// a run).
    started: u64,
    /// Merged builds' and compiles alone's compilers running.
    compiles: usize,
    /// Compiles reserved to go before every other ([`Programs::compile`]),
    /// in their order: whether each has yet to start.
    firsts: Vec<bool>,
    /// The reserved compile that runs with no other beside it, and
    /// whether it runs now.
    sole: Option<usize>,
    sole_running: bool,
}

/// The programs of one checker's runs: admission, the most that ran at
/// once, and the runs done again alone.
#[derive(Debug, Default)]
pub(super) struct Programs {
    state: Mutex<State>,
    changed: Condvar,
    peak: AtomicUsize,
    again_alone: AtomicUsize,
    /// The pool's workers (0 until [`Programs::set_workers`]: one per
    /// core).
    workers: AtomicUsize,
}

/// What a run gives [`Programs::run`]: whether it reached its time limit.
pub(super) trait TimedOut {
    fn timed_out(&self) -> bool;
}

impl Programs {
    /// The pool's workers: as many compilers at once, and
    /// [`PER_WORKER`] times as many programs.
    pub(super) fn set_workers(&self, workers: usize) {
        self.workers.store(workers.max(1), Ordering::Relaxed);
    }

    /// The pool's workers.
    pub(super) fn workers(&self) -> usize {
        match self.workers.load(Ordering::Relaxed) {
            // (Asked once: the answer reads the process's cgroup files.)
            0 => {
                static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
                *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            }
            n => n,
        }
    }

    /// Reserves `n` compiles to go before every other one, and each
    /// before the next ([`Programs::compile`] with `first`); returns the
    /// first one's place.
    pub(super) fn reserve_first(&self, n: usize) -> usize {
        let mut s = self.lock();
        let at = s.firsts.len();
        s.firsts.resize(at + n, true);
        at
    }

    /// Makes the reserved compile at `place` run with no other compile
    /// beside it (the build of a program that sleeps for seconds, which
    /// the whole check waits for: on a machine of two cores, a compile
    /// beside it, itself on several threads, doubled its time).
    pub(super) fn sole(&self, place: usize) {
        self.lock().sole = Some(place);
    }

    /// Gives back the reservation at `place` whose compile never came.
    pub(super) fn release_first(&self, place: usize) {
        if let Some(pending) = self.lock().firsts.get_mut(place) {
            *pending = false;
        }
        self.changed.notify_all();
    }

    /// Runs `compile` (one compiler's run) when fewer compilers than
    /// workers run: merged builds are made on threads of their own, so
    /// that one whose programs run does not keep the next from building,
    /// and compilers still get one worker each. A compile `first` takes
    /// the reservation at that place ([`Programs::reserve_first`]) once
    /// those before it have started; the others wait while one is left.
    pub(super) fn compile<R>(&self, first: Option<usize>, compile: impl FnOnce() -> R) -> R {
        let workers = self.workers();
        {
            let mut s = self.lock();
            let before = |s: &State| match first {
                Some(place) => s.firsts.iter().take(place).any(|p| *p),
                None => s.firsts.iter().any(|p| *p),
            };
            let sole = first.is_some() && first == s.sole;
            while s.compiles >= workers || before(&s) || s.sole_running || (sole && s.compiles > 0)
            {
                s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            if let Some(pending) = first.and_then(|place| s.firsts.get_mut(place)) {
                *pending = false;
            }
            s.compiles += 1;
            s.sole_running = sole;
        }
        if first.is_some() {
            self.changed.notify_all();
        }
        let result = compile();
        {
            let mut s = self.lock();
            s.compiles -= 1;
            s.sole_running = false;
        }
        self.changed.notify_all();
        result
    }

    /// Runs `run` (one program's run) beside others; if it timed out
    /// while another program ran beside it, runs it again with none
    /// beside it and returns that run.
    pub(super) fn run<R: TimedOut>(&self, mut run: impl FnMut() -> R) -> R {
        let (first, crowded) = self.beside(&mut run);
        if !(first.timed_out() && crowded) {
            return first;
        }
        self.again_alone.fetch_add(1, Ordering::Relaxed);
        self.alone(run)
    }

    /// One run beside others, and whether another program ran beside it
    /// at any time.
    fn beside<R>(&self, run: impl FnOnce() -> R) -> (R, bool) {
        let (others, started) = {
            let cap = self.workers() * PER_WORKER;
            let mut s = self.lock();
            while s.alone || s.waiting_alone > 0 || s.running >= cap {
                s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            let others = s.running;
            s.running += 1;
            s.started += 1;
            self.peak.fetch_max(s.running, Ordering::Relaxed);
            (others, s.started)
        };
        let result = run();
        let mut s = self.lock();
        s.running -= 1;
        let crowded = others > 0 || s.started > started;
        drop(s);
        self.changed.notify_all();
        (result, crowded)
    }

    /// One run with no other program running.
    fn alone<R>(&self, run: impl FnOnce() -> R) -> R {
        {
            let mut s = self.lock();
            s.waiting_alone += 1;
            while s.alone || s.running > 0 {
                s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            s.waiting_alone -= 1;
            s.alone = true;
            s.started += 1;
            self.peak.fetch_max(1, Ordering::Relaxed);
        }
        let result = run();
        self.lock().alone = false;
        self.changed.notify_all();
        result
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The most programs that ran at once.
    pub(super) fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Runs that timed out beside others and were run again alone.
    pub(super) fn again_alone(&self) -> usize {
        self.again_alone.load(Ordering::Relaxed)
    }
}

/// Whether a program's code sleeps (`thread::sleep`, an async runtime's
/// `sleep`): a cold check knows no program's duration, and such programs
/// are a book's longest, so they start first.
pub(super) fn sleeps(source: &str) -> bool {
    source.contains("sleep(")
}

/// Runs `f` on each of `items` on up to `width` threads of their own
/// (not the pool's: a sleeping program then holds no worker), the items
/// `first` picks started first; results in the items' order.
pub(super) fn each<T: Sync, R: Send>(
    items: &[T],
    width: usize,
    first: impl Fn(&T) -> bool,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| !first(&items[i]));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..width.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Some(item) = items.get(i) else { break };
                    let r = f(i, item);
                    if let Some(slot) =
                        (results.lock().unwrap_or_else(|e| e.into_inner())).get_mut(i)
                    {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    struct Ran(bool);
    impl TimedOut for Ran {
        fn timed_out(&self) -> bool {
            self.0
        }
    }

    #[test]
    fn a_reserved_compile_goes_before_one_that_asked_earlier() {
        let programs = Programs::default();
        programs.set_workers(1);
        assert_eq!(programs.reserve_first(2), 0);
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            let other = s.spawn(|| programs.compile(None, || order.lock().unwrap().push("other")));
            // The other compile asks first, then the second reserved
            // one; both wait for the first.
            std::thread::sleep(Duration::from_millis(100));
            let second =
                s.spawn(|| programs.compile(Some(1), || order.lock().unwrap().push("second")));
            std::thread::sleep(Duration::from_millis(100));
            programs.compile(Some(0), || order.lock().unwrap().push("first"));
            second.join().unwrap();
            other.join().unwrap();
        });
        assert_eq!(*order.lock().unwrap(), ["first", "second", "other"]);
        // A sole compile has none beside it, with workers to spare.
        programs.set_workers(2);
        let place = programs.reserve_first(1);
        programs.sole(place);
        let beside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let count = |name: &'static str| {
            let now = beside.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(50));
            beside.fetch_sub(1, Ordering::SeqCst);
            order.lock().unwrap().push(name);
        };
        std::thread::scope(|s| {
            let other = s.spawn(|| programs.compile(None, || count("after sole")));
            std::thread::sleep(Duration::from_millis(50));
            programs.compile(Some(place), || count("sole"));
            other.join().unwrap();
        });
        assert_eq!(most.load(Ordering::SeqCst), 1);
        assert_eq!(order.lock().unwrap()[3..], ["sole", "after sole"]);
        // A reservation given back lets the others go.
        assert_eq!(programs.reserve_first(1), 3);
        programs.release_first(3);
        programs.compile(None, || order.lock().unwrap().push("after"));
        assert_eq!(order.lock().unwrap().len(), 6);
    }

    #[test]
    fn a_time_out_beside_others_runs_again_alone_and_alone_is_judged() {
        let programs = Programs::default();
        let runs = AtomicUsize::new(0);
        // Four runs at once: the one that times out while others run is
        // run again, with none beside it.
        let alone_seen = AtomicUsize::new(usize::MAX);
        let results = each(
            &[true, false, false, false],
            4,
            |_| false,
            |_, &times_out| {
                let mut first = true;
                programs.run(|| {
                    runs.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(100));
                    if times_out && !first {
                        alone_seen.store(programs.lock().running, Ordering::Relaxed);
                    }
                    let r = Ran(times_out && first);
                    first = false;
                    r
                })
            },
        );
        assert_eq!(programs.peak(), 4);
        assert_eq!(programs.again_alone(), 1);
        assert_eq!(runs.load(Ordering::Relaxed), 5);
        assert_eq!(alone_seen.load(Ordering::Relaxed), 0, "no other ran");
        assert!(results.iter().all(|r| !r.0), "the run alone is judged");
        // A run that was alone from the start is judged as it is.
        let lone = Programs::default();
        assert!(lone.run(|| Ran(true)).0);
        assert_eq!(lone.again_alone(), 0);
    }

    #[test]
    fn each_keeps_the_order_and_runs_width_at_once() {
        let programs = Programs::default();
        let items: Vec<usize> = (0..12).collect();
        let started = Mutex::new(Vec::new());
        let out = each(
            &items,
            width(items.len(), 1),
            |&n| n >= 10,
            |i, &n| {
                started.lock().unwrap_or_else(|e| e.into_inner()).push(n);
                programs.run(|| {
                    std::thread::sleep(Duration::from_millis(50));
                    Ran(false)
                });
                (i, n * 2)
            },
        );
        assert_eq!(out, (0..12).map(|n| (n, n * 2)).collect::<Vec<_>>());
        assert_eq!(programs.peak(), PER_WORKER);
        // The ones `first` picks started before all others.
        let started = started.into_inner().unwrap_or_default();
        let mut firsts = started[..2].to_vec();
        firsts.sort_unstable();
        assert_eq!(firsts, [10, 11], "{started:?}");
    }
}
