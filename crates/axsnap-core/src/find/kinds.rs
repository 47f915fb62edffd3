//! Kind words: what people call an element, and the roles those words mean.
//!
//! A phrase matches query words by stem, so plurals ("checkboxes", "menu items") count too.
//! Phrases may overlap ("search box" and "box"); every one found in a query applies.

use crate::role::Role;

use Role::*;

const TEXT_FIELD: &[Role] = &[TextBox, SearchBox];
const FIELD: &[Role] = &[TextBox, SearchBox, ComboBox, SpinButton, Date, Time, DateTime, Month, Week, Color];
const PICKER: &[Role] = &[ComboBox, ListBox, Date, Time, DateTime, Month, Week, Color];
const DATE: &[Role] = &[Date, DateTime];
const TIME: &[Role] = &[Time, DateTime];
const SELECT: &[Role] = &[ComboBox, ListBox];
const CHECK: &[Role] = &[CheckBox, Switch, MenuItemCheckbox];
const RADIO: &[Role] = &[Radio, MenuItemRadio];
const MENU_ITEM: &[Role] = &[MenuItem, MenuItemCheckbox, MenuItemRadio];
const DIALOG: &[Role] = &[Dialog, AlertDialog];
const SECTION: &[Role] = &[Group, Region, TabPanel];
const TABLE: &[Role] = &[Table, Grid, TreeGrid];

/// Kind phrases (lowercase words) and the roles they name.
pub(super) const KINDS: &[(&str, &[Role])] = &[
    // Buttons and links.
    ("button", &[Button]),
    ("btn", &[Button]),
    ("push button", &[Button]),
    ("link", &[Link]),
    ("hyperlink", &[Link]),
    // Text entry.
    ("textbox", TEXT_FIELD),
    ("text box", TEXT_FIELD),
    ("text field", TEXT_FIELD),
    ("text input", TEXT_FIELD),
    ("textarea", &[TextBox]),
    ("text area", &[TextBox]),
    ("edit box", TEXT_FIELD),
    ("field", FIELD),
    ("input", FIELD),
    ("entry", FIELD),
    ("box", &[TextBox, SearchBox, ComboBox]),
    ("searchbox", &[SearchBox]),
    ("search box", &[SearchBox]),
    ("search field", &[SearchBox]),
    ("search bar", &[SearchBox]),
    ("search input", &[SearchBox]),
    ("number", &[SpinButton]),
    ("spinner", &[SpinButton]),
    ("spin button", &[SpinButton]),
    ("spinbutton", &[SpinButton]),
    ("stepper", &[SpinButton]),
    // Choosing one of many.
    ("select", SELECT),
    ("dropdown", SELECT),
    ("drop down", SELECT),
    ("combobox", SELECT),
    ("combo box", SELECT),
    ("combo", SELECT),
    ("picker", PICKER),
    ("chooser", PICKER),
    ("selector", SELECT),
    ("listbox", &[ListBox]),
    ("list box", &[ListBox]),
    ("option", &[Option, Radio, MenuItemRadio]),
    ("choice", &[Option, Radio, MenuItemRadio]),
    ("radio", RADIO),
    ("radio button", RADIO),
    ("option button", RADIO),
    // On and off.
    ("checkbox", CHECK),
    ("check box", CHECK),
    ("tickbox", CHECK),
    ("tick box", CHECK),
    ("check", CHECK),
    ("uncheck", CHECK),
    ("tick", CHECK),
    ("untick", CHECK),
    ("toggle", CHECK),
    ("switch", CHECK),
    ("enable", CHECK),
    ("disable", CHECK),
    ("turn on", CHECK),
    ("turn off", CHECK),
    // Picked values.
    ("date", DATE),
    ("time", TIME),
    ("datetime", &[DateTime]),
    ("month", &[Month]),
    ("week", &[Week]),
    ("color", &[Color]),
    ("colour", &[Color]),
    ("slider", &[Slider]),
    ("range", &[Slider]),
    // Menus and tabs.
    ("menu", &[Menu, MenuBar]),
    ("menu bar", &[MenuBar]),
    ("menubar", &[MenuBar]),
    ("menu item", MENU_ITEM),
    ("menuitem", MENU_ITEM),
    ("tab", &[Tab]),
    ("tab panel", &[TabPanel]),
    ("tabpanel", &[TabPanel]),
    ("tree item", &[TreeItem]),
    ("treeitem", &[TreeItem]),
    ("tree", &[Tree, TreeGrid]),
    // Surfaces and containers (these mostly name ancestors: "close button in the dialog").
    ("dialog", DIALOG),
    ("modal", DIALOG),
    ("popup", DIALOG),
    ("pop up", DIALOG),
    ("alert", &[Alert, AlertDialog]),
    ("tooltip", &[Tooltip]),
    ("form", &[Form]),
    ("group", SECTION),
    ("fieldset", SECTION),
    ("section", SECTION),
    ("panel", SECTION),
    ("region", SECTION),
    ("navigation", &[Navigation]),
    ("nav", &[Navigation]),
    ("navbar", &[Navigation]),
    ("header", &[Banner]),
    ("banner", &[Banner]),
    ("footer", &[ContentInfo]),
    ("sidebar", &[Complementary]),
    ("aside", &[Complementary]),
    ("toolbar", &[Toolbar]),
    ("table", TABLE),
    ("grid", TABLE),
    ("row", &[Row]),
    ("cell", &[Cell]),
    ("column", &[ColumnHeader]),
    ("list", &[List, ListBox]),
    ("article", &[Article]),
    ("card", &[Article]),
    // Content.
    ("heading", &[Heading]),
    ("headline", &[Heading]),
    ("title", &[Heading]),
    ("image", &[Image]),
    ("img", &[Image]),
    ("picture", &[Image]),
    ("photo", &[Image]),
    ("icon", &[Image]),
    ("progress", &[ProgressBar, Meter]),
    ("progress bar", &[ProgressBar, Meter]),
    ("progressbar", &[ProgressBar, Meter]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_are_lowercase_words_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for (p, roles) in KINDS {
            assert!(!roles.is_empty(), "{p}");
            assert!(
                p.split(' ').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase())),
                "{p:?}"
            );
            assert!(seen.insert(*p), "{p} twice");
        }
    }
}
