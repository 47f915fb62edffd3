// axsnap main-world shim: tells the isolated world about shadow roots made by attachShadow (open
// ones by an event on the host; closed ones, which the isolated world cannot reach, by observing
// them here and forwarding each mutation as an event).
(() => {
  const orig = Element.prototype.attachShadow;
  if (!orig || orig.__axsnap) return;
  const fire = (t, type) => t.dispatchEvent(new Event(type, { bubbles: true, composed: true }));
  const patched = function (init) {
    const root = orig.call(this, init);
    try {
      if (init && init.mode === 'closed') {
        new MutationObserver(() => fire(document, '__axsnap_bump'))
          .observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
        fire(document, '__axsnap_closed_root');
      } else if (this.isConnected) {
        // A host outside the document is found by the isolated world's observer when it is
        // put in (its shadow roots with it); an event from it would only walk up the detached
        // tree, once per root: quadratic in a tree of nested roots built before it goes in.
        fire(this, '__axsnap_shadow');
      }
    } catch (_) {}
    return root;
  };
  patched.__axsnap = true;
  Element.prototype.attachShadow = patched;
})();
