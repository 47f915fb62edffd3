//! Recording a backend's tabs: which pages its [`crate::record::Recorder`] listens to.

use axsnap_core::TargetId;

use super::CdpBackend;
use crate::page::PageHandle;

impl CdpBackend {
    /// Records its tabs' requests and console messages from now on (each tab from the moment
    /// this backend attaches to it: before the first navigation of a tab it opens), or stops.
    pub fn set_recording(&mut self, on: bool) {
        match (on, self.recorder.is_some()) {
            (true, false) => {
                let mut recorder = crate::record::Recorder::new();
                for page in self.pages.values() {
                    recorder.watch(page);
                }
                self.recorder = Some(recorder);
            }
            (false, true) => self.recorder = None,
            _ => {}
        }
    }

    /// Its record of requests and console messages, when it records.
    pub fn recorder(&self) -> Option<&crate::record::Recorder> {
        self.recorder.as_ref()
    }

    /// The CDP id of the tab behind `target` (what the [`crate::record::Recorder`] files its
    /// entries under).
    pub fn tab_id(&self, target: &TargetId) -> String {
        self.cdp_id(target)
    }

    /// Keeps `page` as the tab `id` (recording it when this backend records).
    pub(super) fn keep_page(&mut self, id: String, page: PageHandle) {
        if let Some(r) = self.recorder.as_mut() {
            r.watch(&page);
        }
        self.pages.insert(id, page);
    }
}
