//! The normalized role vocabulary: one set of ARIA-like roles for every platform.
//!
//! Backends map their own roles onto [`Role`] with [`Role::parse`]; a role the vocabulary does
//! not know is kept verbatim as [`Role::Other`] so nothing the platform said is lost.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! roles {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal $(| $alias:literal)* ),* $(,)?) => {
        /// A normalized role. Serialized as its lowercase ARIA-like name.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Role {
            $( $(#[$doc])* $variant, )*
            /// A platform role outside the vocabulary, kept as the platform spelled it.
            Other(String),
        }

        impl Role {
            /// The canonical name of this role (`"button"`, `"textbox"`, ...).
            pub fn as_str(&self) -> &str {
                match self {
                    $( Role::$variant => $name, )*
                    Role::Other(s) => s,
                }
            }

            /// Maps a platform role name onto the vocabulary, case-insensitively, accepting
            /// common aliases (`StaticText`, `push button`, `ROLE_PUSH_BUTTON`, `check box`).
            /// Unknown names become [`Role::Other`].
            pub fn parse(raw: &str) -> Role {
                let key = normalize_key(raw);
                match key.as_str() {
                    $( $name $(| $alias)* => Role::$variant, )*
                    _ => Role::Other(raw.to_string()),
                }
            }
        }
    };
}

roles! {
    /// A push button.
    Button => "button" | "pushbutton" | "togglebutton",
    /// A hyperlink.
    Link => "link",
    /// A single- or multi-line text entry.
    TextBox => "textbox" | "textfield" | "entry" | "passwordtext" | "passwordfield" | "edit" | "textarea" | "terminal",
    /// A text entry for search.
    SearchBox => "searchbox",
    /// A checkbox.
    CheckBox => "checkbox" | "checkbutton",
    /// A radio button.
    Radio => "radio" | "radiobutton",
    /// A switch (on/off).
    Switch => "switch",
    /// A combobox (select, autocomplete).
    ComboBox => "combobox" | "popupbutton",
    /// A list of selectable options.
    ListBox => "listbox",
    /// An option in a listbox or combobox.
    Option => "option" | "listboxoption" | "menulistoption",
    /// A menu.
    Menu => "menu" | "menulistpopup" | "popupmenu",
    /// A menu bar.
    MenuBar => "menubar",
    /// A menu item.
    MenuItem => "menuitem",
    /// A checkable menu item.
    MenuItemCheckbox => "menuitemcheckbox" | "checkmenuitem",
    /// A radio menu item.
    MenuItemRadio => "menuitemradio" | "radiomenuitem",
    /// A tab.
    Tab => "tab" | "pagetab",
    /// A list of tabs.
    TabList => "tablist" | "pagetablist",
    /// The panel a tab shows.
    TabPanel => "tabpanel",
    /// A tree widget.
    Tree => "tree" | "treeview",
    /// An item of a tree widget.
    TreeItem => "treeitem",
    /// A tree grid.
    TreeGrid => "treegrid" | "treetable",
    /// An interactive grid.
    Grid => "grid",
    /// A data table.
    Table => "table" | "layouttable",
    /// A row of a table or grid.
    Row => "row" | "tablerow" | "layouttablerow",
    /// A cell of a table or grid.
    Cell => "cell" | "gridcell" | "tablecell" | "layouttablecell",
    /// A column header.
    ColumnHeader => "columnheader" | "tablecolumnheader",
    /// A row header.
    RowHeader => "rowheader" | "tablerowheader",
    /// A list.
    List => "list" | "descriptionlist",
    /// An item of a list.
    ListItem => "listitem" | "term" | "definition" | "descriptionlistterm" | "descriptionlistdetail",
    /// A heading (see `level`).
    Heading => "heading",
    /// A paragraph.
    Paragraph => "paragraph",
    /// A run of text.
    Text => "text" | "statictext",
    /// A text-run fragment the platform adds below text (dropped by projection).
    TextRun => "inlinetextbox" | "textrun",
    /// A label for another element.
    Label => "label" | "labeltext",
    /// An image.
    Image => "image" | "img" | "icon" | "graphic" | "svgroot",
    /// A figure.
    Figure => "figure",
    /// A dialog.
    Dialog => "dialog" | "filechooser" | "colorchooser",
    /// An alert dialog.
    AlertDialog => "alertdialog",
    /// An alert.
    Alert => "alert" | "notification",
    /// A status region.
    Status => "status" | "statusbar",
    /// A log region.
    Log => "log",
    /// A timer.
    Timer => "timer",
    /// A tooltip.
    Tooltip => "tooltip" | "tooltiptext",
    /// The page banner (header).
    Banner => "banner" | "header",
    /// A navigation landmark.
    Navigation => "navigation",
    /// The main landmark.
    Main => "main",
    /// The content-info landmark (footer).
    ContentInfo => "contentinfo" | "footer",
    /// A complementary landmark (aside).
    Complementary => "complementary",
    /// A named region landmark.
    Region => "region" | "section",
    /// A form.
    Form => "form",
    /// A search landmark.
    Search => "search",
    /// An article.
    Article => "article",
    /// A document (page or frame root).
    Document => "document" | "rootwebarea" | "webarea" | "documentweb" | "documentframe" | "iframe",
    /// An application root.
    Application => "application",
    /// A top-level window.
    Window => "window" | "frame",
    /// A group of related elements.
    Group => "group" | "fieldset" | "panel" | "details" | "filler" | "radiogroup",
    /// A toolbar.
    Toolbar => "toolbar",
    /// A slider.
    Slider => "slider",
    /// A date field (`<input type=date>`): its value is `yyyy-mm-dd`.
    Date => "date" | "dateeditor",
    /// A time field (`<input type=time>`): `hh:mm`.
    Time => "time" | "inputtime",
    /// A date-and-time field (`<input type=datetime-local>`): `yyyy-mm-ddThh:mm`.
    DateTime => "datetime" | "datetimelocal",
    /// A month field (`<input type=month>`): `yyyy-mm`.
    Month => "month",
    /// A week field (`<input type=week>`): `yyyy-Www`.
    Week => "week",
    /// A colour field (`<input type=color>`, a colour well): `#rrggbb`.
    Color => "color" | "colorwell",
    /// A spin button.
    SpinButton => "spinbutton",
    /// A progress bar.
    ProgressBar => "progressbar" | "progressindicator",
    /// A meter.
    Meter => "meter" | "levelbar",
    /// A scroll bar.
    ScrollBar => "scrollbar",
    /// A separator.
    Separator => "separator" | "splitter",
    /// Code.
    Code => "code",
    /// A block quote.
    Blockquote => "blockquote",
    /// A generic container with no semantics of its own (the default).
    #[default]
    Generic => "generic" | "div" | "span" | "unknown" | "pane" | "scrollpane" | "viewport" | "layeredpane",
    /// An element the author marked presentational (dropped by projection).
    None => "none" | "presentation",
    /// Synthetic: stands where projection cut content (its name says how much).
    More => "more",
}

/// Lowercases and strips separators so `ROLE_PUSH_BUTTON`, `push button` and `PushButton`
/// compare equal.
fn normalize_key(raw: &str) -> String {
    let raw = raw.strip_prefix("ROLE_").unwrap_or(raw);
    raw.chars().filter(|c| !matches!(c, ' ' | '_' | '-')).flat_map(char::to_lowercase).collect()
}

impl Role {
    /// Whether the role is a widget an agent operates (buttons, fields, options, ...).
    pub fn is_widget(&self) -> bool {
        matches!(
            self,
            Role::Button
                | Role::Link
                | Role::TextBox
                | Role::SearchBox
                | Role::CheckBox
                | Role::Radio
                | Role::Switch
                | Role::ComboBox
                | Role::ListBox
                | Role::Option
                | Role::MenuItem
                | Role::MenuItemCheckbox
                | Role::MenuItemRadio
                | Role::Tab
                | Role::TreeItem
                | Role::Slider
                | Role::SpinButton
                | Role::ScrollBar
        ) || self.is_picker()
    }

    /// Whether the role is a field whose value is picked rather than typed (date, time,
    /// datetime, month, week, colour): one control holding its value in the form
    /// [`Role::value_format`] says, which `fill` sets.
    pub fn is_picker(&self) -> bool {
        self.value_format().is_some()
    }

    /// The form a picked value is written in (`yyyy-mm-dd` for a date), shown beside an
    /// empty field so an agent knows what `fill` takes.
    ///
    /// ```
    /// use axsnap_core::Role;
    /// assert_eq!(Role::Date.value_format(), Some("yyyy-mm-dd"));
    /// assert_eq!(Role::TextBox.value_format(), None);
    /// ```
    pub fn value_format(&self) -> Option<&'static str> {
        Some(match self {
            Role::Date => "yyyy-mm-dd",
            Role::Time => "hh:mm",
            Role::DateTime => "yyyy-mm-ddThh:mm",
            Role::Month => "yyyy-mm",
            Role::Week => "yyyy-Www",
            Role::Color => "#rrggbb",
            _ => return None,
        })
    }

    /// Whether the role is a landmark that gives a page its outline.
    pub fn is_landmark(&self) -> bool {
        matches!(
            self,
            Role::Banner
                | Role::Navigation
                | Role::Main
                | Role::ContentInfo
                | Role::Complementary
                | Role::Region
                | Role::Form
                | Role::Search
        )
    }

    /// Whether the role is a surface that sits on top of the rest (dialog, menu, alert).
    pub fn is_surface(&self) -> bool {
        matches!(
            self,
            Role::Dialog | Role::AlertDialog | Role::Alert | Role::Menu | Role::ListBox | Role::Tooltip
        )
    }

    /// Whether the role is a run of text (joined and normalized by projection).
    pub fn is_text(&self) -> bool {
        matches!(self, Role::Text)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(Role::parse(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_platform_spellings() {
        assert_eq!(Role::parse("StaticText"), Role::Text);
        assert_eq!(Role::parse("push button"), Role::Button);
        assert_eq!(Role::parse("ROLE_CHECK_BOX"), Role::CheckBox);
        assert_eq!(Role::parse("RootWebArea"), Role::Document);
        assert_eq!(Role::parse("InlineTextBox"), Role::TextRun);
        // Chromium's names of the picked inputs, and AT-SPI's date editor.
        assert_eq!(Role::parse("InputTime"), Role::Time);
        assert_eq!(Role::parse("ColorWell"), Role::Color);
        assert_eq!(Role::parse("date editor"), Role::Date);
    }

    #[test]
    fn pickers_are_widgets_with_a_format() {
        for r in [Role::Date, Role::Time, Role::DateTime, Role::Month, Role::Week, Role::Color] {
            assert!(r.is_widget() && r.is_picker(), "{r}");
        }
        assert!(!Role::TextBox.is_picker() && !Role::Slider.is_picker());
    }

    #[test]
    fn keeps_unknown_roles_verbatim() {
        assert_eq!(Role::parse("FancyWidget"), Role::Other("FancyWidget".into()));
        assert_eq!(Role::parse("FancyWidget").as_str(), "FancyWidget");
    }

    #[test]
    fn canonical_names_round_trip() {
        for r in
            [Role::Button, Role::MenuItemCheckbox, Role::ContentInfo, Role::More, Role::DateTime, Role::Color]
        {
            assert_eq!(Role::parse(r.as_str()), r);
        }
    }
}
