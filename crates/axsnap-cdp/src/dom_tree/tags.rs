//! What tag names and attributes mean to the DOM tree: the attributes it reads and the role
//! family of each tag.

use axsnap_core::Role;

/// The attributes read, in the order of [`ATTRS`].
#[derive(Clone, Copy)]
pub(super) enum A {
    Role,
    AriaLabel,
    AriaLabelledby,
    Alt,
    Title,
    Placeholder,
    Type,
    Href,
    Value,
    For,
    Id,
    Disabled,
    Required,
    Readonly,
    AriaHidden,
    AriaExpanded,
    AriaChecked,
    AriaPressed,
    AriaSelected,
    AriaDisabled,
    AriaRequired,
    AriaReadonly,
    AriaInvalid,
    AriaModal,
    AriaLevel,
    AriaHaspopup,
    AriaMultiselectable,
    AriaMultiline,
    Multiple,
    Size,
    Tabindex,
    Contenteditable,
    Scope,
    Open,
    AriaDescribedby,
    AriaDescription,
    AriaValuenow,
    AriaValuetext,
    Class,
    AriaValuemin,
    AriaValuemax,
    Min,
    Max,
    Step,
}

pub(super) const ATTRS: [&str; 44] = [
    "role",
    "aria-label",
    "aria-labelledby",
    "alt",
    "title",
    "placeholder",
    "type",
    "href",
    "value",
    "for",
    "id",
    "disabled",
    "required",
    "readonly",
    "aria-hidden",
    "aria-expanded",
    "aria-checked",
    "aria-pressed",
    "aria-selected",
    "aria-disabled",
    "aria-required",
    "aria-readonly",
    "aria-invalid",
    "aria-modal",
    "aria-level",
    "aria-haspopup",
    "aria-multiselectable",
    "aria-multiline",
    "multiple",
    "size",
    "tabindex",
    "contenteditable",
    "scope",
    "open",
    "aria-describedby",
    "aria-description",
    "aria-valuenow",
    "aria-valuetext",
    "class",
    "aria-valuemin",
    "aria-valuemax",
    "min",
    "max",
    "step",
];

/// What a tag name means here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
    /// Never shown (head, script, style, ...): the subtree is skipped.
    Skip,
    /// No role of its own.
    Plain,
    /// Plain, but starts a new line of text (a space in names from content).
    Block,
    A,
    Button,
    Summary,
    Input,
    Select,
    OptGroup,
    Option,
    TextArea,
    Heading(u32),
    Img,
    Frame,
    /// A leaf graphic (its inner elements are not walked).
    Svg,
    Th,
    Section,
    /// A `<fieldset>`: a group named by its legend.
    Fieldset,
    /// A `<details>`: a group whose content past its summary is shown only when open.
    Details,
    /// A `<legend>`: names its fieldset.
    Legend,
    /// A `<label>`: names the control it wraps or points to.
    Label,
    /// A fixed role (a Chromium or ARIA role name).
    Role(&'static str),
}

pub(super) fn classify(name: &str) -> Tag {
    match name.to_ascii_uppercase().as_str() {
        "HEAD" | "SCRIPT" | "STYLE" | "TEMPLATE" | "NOSCRIPT" | "META" | "LINK" | "TITLE" | "BASE" => {
            Tag::Skip
        }
        "HR" => Tag::Role("separator"),
        "DIV" | "BR" | "TBODY" | "THEAD" | "TFOOT" | "CAPTION" | "PRE" => Tag::Block,
        "A" | "AREA" => Tag::A,
        "BUTTON" => Tag::Button,
        "SUMMARY" => Tag::Summary,
        "INPUT" => Tag::Input,
        "SELECT" => Tag::Select,
        "OPTGROUP" => Tag::OptGroup,
        "OPTION" => Tag::Option,
        "TEXTAREA" => Tag::TextArea,
        "H1" => Tag::Heading(1),
        "H2" => Tag::Heading(2),
        "H3" => Tag::Heading(3),
        "H4" => Tag::Heading(4),
        "H5" => Tag::Heading(5),
        "H6" => Tag::Heading(6),
        "IMG" => Tag::Img,
        "IFRAME" | "FRAME" => Tag::Frame,
        "SVG" | "CANVAS" => Tag::Svg,
        "TH" => Tag::Th,
        "SECTION" => Tag::Section,
        "UL" | "OL" | "MENU" | "DL" => Tag::Role("list"),
        "LI" => Tag::Role("listitem"),
        "DT" => Tag::Role("term"),
        "DD" => Tag::Role("definition"),
        "TR" => Tag::Role("row"),
        "TD" => Tag::Role("cell"),
        "LABEL" => Tag::Label,
        "TABLE" => Tag::Role("table"),
        "NAV" => Tag::Role("navigation"),
        "MAIN" => Tag::Role("main"),
        "HEADER" => Tag::Role("banner"),
        "FOOTER" => Tag::Role("contentinfo"),
        "ASIDE" => Tag::Role("complementary"),
        "FORM" => Tag::Role("form"),
        "SEARCH" => Tag::Role("search"),
        "ARTICLE" => Tag::Role("article"),
        "DIALOG" => Tag::Role("dialog"),
        "FIELDSET" => Tag::Fieldset,
        "DETAILS" => Tag::Details,
        "VIDEO" | "AUDIO" => Tag::Role("group"),
        "LEGEND" => Tag::Legend,
        "P" => Tag::Role("paragraph"),
        "FIGURE" => Tag::Role("figure"),
        "BLOCKQUOTE" => Tag::Role("blockquote"),
        "CODE" => Tag::Role("code"),
        "PROGRESS" => Tag::Role("progressbar"),
        "METER" => Tag::Role("meter"),
        _ => Tag::Plain,
    }
}

/// The role an `<input>` of type `input_type` (lower case) has, spelled as Chromium's tree
/// spells it (`map_role` reads both; a lower-case `time` is the `<time>` element's).
pub(super) fn input_role(input_type: &str) -> &'static str {
    match input_type {
        "date" => "Date",
        "time" => "InputTime",
        "datetime-local" => "DateTime",
        "month" => "month",
        "week" => "week",
        "color" => "ColorWell",
        "checkbox" => "checkbox",
        "radio" => "radio",
        "range" => "slider",
        "number" => "spinbutton",
        "search" => "searchbox",
        "button" | "submit" | "reset" | "image" | "file" => "button",
        _ => "textbox",
    }
}

/// Whether an `<input>` of type `input_type` holds its value as text a name can quote: a text
/// field's or a picked field's (`2011-10-11`), not a check box's or a button's.
pub(super) fn value_is_text(input_type: &str) -> bool {
    matches!(
        input_role(input_type),
        "textbox" | "Date" | "InputTime" | "DateTime" | "month" | "week" | "ColorWell"
    )
}

/// Roles whose name comes from their content when nothing else names them.
pub(super) fn named_by_content(role: &Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::Link
            | Role::Heading
            | Role::Cell
            | Role::ColumnHeader
            | Role::RowHeader
            | Role::Option
            | Role::Tab
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::TreeItem
            | Role::CheckBox
            | Role::Radio
            | Role::Switch
            | Role::Tooltip
    ) || matches!(role, Role::Other(r) if matches!(r.as_str(), "doc-noteref" | "doc-backlink" | "doc-biblioref" | "doc-glossref"))
}
