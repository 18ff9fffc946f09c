//! The mechanics catalog (DESIGN §4a): our own typed encoding of every SRD trait, feature,
//! spell, item and monster ability, as pure data loaded once.
//!
//! Empty for now: the catalog is built by issue 13. What belongs here is data the use cases read
//! (what a feature does, typed), not code that reads the SRD at call time or touches the store.
//! Layer rule: the catalog may use [`crate::model`] types; it never imports a use case, a
//! [`crate::engine::Call`] or the store.
