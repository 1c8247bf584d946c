//! Cancellation handles for calls and runs.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use tokio::sync::watch;

/// Cancels the calls it is passed to: a call that is running is stopped
/// (its handler's future is dropped) and answers `Error [ABORTED]: ...`; a
/// call that has not started yet does not start.
///
/// Clones share one state. A [`child`](Self::child) is aborted with its
/// parent but can also be aborted alone, so one handle can stand for a whole
/// run and each call can still have its own.
///
/// ```
/// use tool_contract::runtime::AbortHandle;
///
/// let run = AbortHandle::new();
/// let call = run.child();
/// call.abort();
/// assert!(call.is_aborted() && !run.is_aborted());
///
/// let other = run.child();
/// run.abort();
/// assert!(other.is_aborted());
/// assert!(run.child().is_aborted());
/// ```
#[derive(Clone)]
pub struct AbortHandle {
    inner: Arc<Inner>,
}

struct Inner {
    aborted: watch::Sender<bool>,
    children: Mutex<Vec<Weak<Inner>>>,
    /// Keeps the chain to the root alive while this handle lives, so that a
    /// parent that was dropped still passes an abort on.
    _parent: Option<Arc<Inner>>,
}

impl AbortHandle {
    /// A handle that is not aborted.
    pub fn new() -> Self {
        AbortHandle::with_parent(None)
    }

    fn with_parent(parent: Option<Arc<Inner>>) -> Self {
        AbortHandle {
            inner: Arc::new(Inner {
                aborted: watch::Sender::new(false),
                children: Mutex::new(Vec::new()),
                _parent: parent,
            }),
        }
    }

    /// A handle that is aborted when this one is, or on its own.
    pub fn child(&self) -> AbortHandle {
        let child = AbortHandle::with_parent(Some(Arc::clone(&self.inner)));
        {
            let mut children = self.inner.lock_children();
            children.retain(|weak| weak.strong_count() > 0);
            children.push(Arc::downgrade(&child.inner));
        }
        // Checked after registering, so an abort in between is not missed.
        if self.is_aborted() {
            child.abort();
        }
        child
    }

    /// Aborts the calls this handle (or a clone) was passed to, and every child.
    pub fn abort(&self) {
        self.inner.abort();
    }

    /// Whether [`abort`](Self::abort) was called on this handle or a parent.
    pub fn is_aborted(&self) -> bool {
        *self.inner.aborted.borrow()
    }

    /// Resolves once the handle is aborted.
    pub async fn aborted(&self) {
        let mut receiver = self.inner.aborted.subscribe();
        if receiver.wait_for(|aborted| *aborted).await.is_err() {
            // The sender lives in `self.inner`, which `self` keeps alive, so
            // the channel cannot close; never resolve if it somehow does.
            std::future::pending::<()>().await;
        }
    }
}

impl Inner {
    fn abort(&self) {
        if self.aborted.send_replace(true) {
            return;
        }
        let children: Vec<Weak<Inner>> = self.lock_children().drain(..).collect();
        for child in children.iter().filter_map(Weak::upgrade) {
            child.abort();
        }
    }

    fn lock_children(&self) -> std::sync::MutexGuard<'_, Vec<Weak<Inner>>> {
        // Pushes and drains leave the list whole even if a panic poisoned it.
        self.children.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for AbortHandle {
    fn default() -> Self {
        AbortHandle::new()
    }
}

impl fmt::Debug for AbortHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AbortHandle")
            .field("aborted", &self.is_aborted())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn aborted_resolves_when_a_parent_aborts() {
        let run = AbortHandle::new();
        let call = run.child().child();
        let waiter = tokio::spawn({
            let call = call.clone();
            async move {
                call.aborted().await;
                tokio::time::Instant::now()
            }
        });
        let start = tokio::time::Instant::now();
        tokio::time::sleep(Duration::from_millis(30)).await;
        run.abort();
        let woke = waiter.await.unwrap();
        assert_eq!(woke - start, Duration::from_millis(30));
        assert!(call.is_aborted());
        assert_eq!(format!("{call:?}"), "AbortHandle { aborted: true }");
        // Already aborted: resolves at once.
        call.aborted().await;
    }

    #[test]
    fn dropped_children_are_forgotten() {
        let run = AbortHandle::new();
        for _ in 0..10 {
            drop(run.child());
        }
        let kept = run.child();
        assert_eq!(run.inner.lock_children().len(), 1);
        run.abort();
        assert!(kept.is_aborted());
    }
}
