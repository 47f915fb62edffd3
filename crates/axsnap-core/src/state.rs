//! Element states and supported actions, each a small set of named flags.
//!
//! Both are bitsets so a node stays small and a diff can compare them in one instruction; both
//! serialize as sorted lists of names (`["disabled", "focused"]`) so the JSON form is readable.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! flag_set {
    (
        $(#[$setdoc:meta])* $set:ident,
        $(#[$enumdoc:meta])* $flag:ident {
            $( $(#[$doc:meta])* $variant:ident = $bit:literal => $name:literal ),* $(,)?
        }
    ) => {
        $(#[$enumdoc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $flag {
            $( $(#[$doc])* $variant, )*
        }

        impl $flag {
            /// Every flag, in canonical (rendering) order.
            pub const ALL: &'static [$flag] = &[$($flag::$variant),*];

            /// The flag's canonical name.
            pub fn as_str(self) -> &'static str {
                match self { $( $flag::$variant => $name, )* }
            }

            /// Parses a canonical name; `None` for a name this version does not know.
            pub fn parse(name: &str) -> Option<$flag> {
                match name { $( $name => Some($flag::$variant), )* _ => None }
            }

            fn bit(self) -> u32 {
                match self { $( $flag::$variant => 1 << $bit, )* }
            }
        }

        impl fmt::Display for $flag {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        $(#[$setdoc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $set(u32);

        impl $set {
            /// The empty set.
            pub const EMPTY: $set = $set(0);

            /// Whether `flag` is in the set.
            pub fn contains(self, flag: $flag) -> bool {
                self.0 & flag.bit() != 0
            }

            /// Adds or removes `flag`.
            pub fn set(&mut self, flag: $flag, on: bool) {
                if on { self.0 |= flag.bit() } else { self.0 &= !flag.bit() }
            }

            /// Returns the set with `flag` added.
            #[must_use]
            pub fn with(mut self, flag: $flag) -> $set {
                self.set(flag, true);
                self
            }

            /// Whether the set is empty.
            pub fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// `is_empty` by reference (for serde's `skip_serializing_if`).
            pub fn is_none_set(&self) -> bool {
                self.0 == 0
            }

            /// The flags in the set, in canonical order.
            pub fn iter(self) -> impl Iterator<Item = $flag> {
                $flag::ALL.iter().copied().filter(move |f| self.contains(*f))
            }

            /// The raw bits (stable only within one build; use names for storage).
            pub fn bits(self) -> u32 {
                self.0
            }
        }

        impl FromIterator<$flag> for $set {
            fn from_iter<I: IntoIterator<Item = $flag>>(iter: I) -> Self {
                let mut s = $set::EMPTY;
                for f in iter { s.set(f, true); }
                s
            }
        }

        impl fmt::Debug for $set {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_set().entries(self.iter()).finish()
            }
        }

        impl Serialize for $set {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.iter().map($flag::as_str))
            }
        }

        impl<'de> Deserialize<'de> for $set {
            /// Unknown names are skipped, not rejected: platforms add states and actions.
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let names = Vec::<std::borrow::Cow<'de, str>>::deserialize(d)?;
                Ok(names.iter().filter_map(|n| $flag::parse(n)).collect())
            }
        }
    };
}

flag_set! {
    /// The set of states of one element.
    StateSet,
    /// A state an element can be in.
    State {
        /// Cannot be operated.
        Disabled = 0 => "disabled",
        /// Has keyboard focus.
        Focused = 1 => "focused",
        /// Checked (checkbox, radio, switch, checkable menu item).
        Checked = 2 => "checked",
        /// Partly checked (tri-state checkbox).
        Mixed = 3 => "mixed",
        /// Pressed (toggle button).
        Pressed = 4 => "pressed",
        /// Selected (option, tab, row).
        Selected = 5 => "selected",
        /// Expanded (disclosure, combobox, tree item).
        Expanded = 6 => "expanded",
        /// Collapsed: can be expanded and is not.
        Collapsed = 7 => "collapsed",
        /// Must be filled.
        Required = 8 => "required",
        /// Cannot be edited.
        Readonly = 9 => "readonly",
        /// Value fails validation.
        Invalid = 10 => "invalid",
        /// Being updated.
        Busy = 11 => "busy",
        /// A modal surface.
        Modal = 12 => "modal",
        /// Outside the viewport.
        Offscreen = 13 => "offscreen",
        /// Covered by another element at its centre.
        Obscured = 14 => "obscured",
        /// Accepts several selected options.
        Multiselectable = 15 => "multiselectable",
        /// Editable text (a field, or contenteditable).
        Editable = 16 => "editable",
        /// Can take keyboard focus.
        Focusable = 17 => "focusable",
        /// A secret (see [`crate::secret`]): a password field, a field whose autocomplete
        /// asks for a password or a one-time code, text masked by CSS. Its value, the text
        /// inside it and its length never leave the backend.
        Protected = 18 => "protected",
        /// Multi-line text entry.
        Multiline = 19 => "multiline",
        /// Drawn over other elements, covering them at their centre (an open menu, a modal's
        /// backdrop): the elements it covers are `Obscured`.
        Covering = 20 => "covering",
    }
}

flag_set! {
    /// The set of actions an element supports.
    ActionSet,
    /// An action an element supports.
    Action {
        /// Click / activate.
        Click = 0 => "click",
        /// Toggle a checked or pressed state.
        Toggle = 1 => "toggle",
        /// Expand or collapse.
        Expand = 2 => "expand",
        /// Select (an option, a tab, a row).
        Select = 3 => "select",
        /// Set a value or type text.
        SetValue = 4 => "set_value",
        /// Scroll.
        Scroll = 5 => "scroll",
        /// Take focus.
        Focus = 6 => "focus",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut s = StateSet::EMPTY.with(State::Focused).with(State::Disabled);
        assert!(s.contains(State::Focused));
        s.set(State::Focused, false);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![State::Disabled]);
    }

    #[test]
    fn serde_skips_unknown_names() {
        let s: StateSet = serde_json::from_str(r#"["checked","sparkly","focused"]"#).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"["focused","checked"]"#);
        let a: ActionSet = serde_json::from_str(r#"["set_value","click"]"#).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"["click","set_value"]"#);
    }
}
