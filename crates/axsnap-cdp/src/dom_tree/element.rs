//! One element's role, name, value, states and actions, from its tag, attributes and form
//! state (a cheap approximation of the browser's own computation).

use std::collections::HashMap;

use axsnap_core::{Node, Role, State, StateSet, ValueRange};

use super::tags::{named_by_content, Tag, A};
use super::text::{normalize, resolve, MAX_NAME};
use super::{Builder, Step, ELEMENT, TEXT};
use crate::layout::RawDoc;

/// Most nodes one name-from-content walk visits.
const MAX_NAME_WALK: usize = 500;
use crate::ax::{actions_for, map_role, ActionFacts};

impl<'s> Builder<'s> {
    /// An element's role, name, value, states, actions, level and URL.
    pub(super) fn element(&mut self, i: usize, tag: Tag, step: &Step, clickable: bool) -> Node {
        let (label, in_select) = (step.label, step.in_select);
        let input_type = if tag == Tag::Input { self.input_type(i) } else { String::new() };
        let role = self.role(i, tag, &input_type, clickable);
        let mut node = Node { role: role.clone(), ..Node::default() };
        let mut states = StateSet::EMPTY;
        let mut f = ActionFacts::default();
        let disabled = self.attr(i, A::Disabled).is_some() || self.attr_true(i, A::AriaDisabled);
        states.set(State::Disabled, disabled);
        states
            .set(State::Required, self.attr(i, A::Required).is_some() || self.attr_true(i, A::AriaRequired));
        let readonly = self.attr(i, A::Readonly).is_some() || self.attr_true(i, A::AriaReadonly);
        states.set(State::Readonly, readonly);
        states.set(State::Invalid, self.attr(i, A::AriaInvalid).is_some_and(|v| v != "false"));
        states.set(State::Modal, self.attr_true(i, A::AriaModal));
        states.set(
            State::Multiselectable,
            self.attr_true(i, A::AriaMultiselectable)
                || (tag == Tag::Select && self.attr(i, A::Multiple).is_some()),
        );
        // A label's own expanded state means nothing to the browser (mdBook's sidebar toggle
        // sets one on its label): the accessibility tree does not say it.
        if let Some(v) = self.attr(i, A::AriaExpanded).filter(|_| role != Role::Label) {
            f.expandable = true;
            states.set(if v == "true" { State::Expanded } else { State::Collapsed }, true);
        } else if tag == Tag::Select && role == Role::ComboBox {
            // A drop-down is collapsed whenever a snapshot can be taken.
            f.expandable = true;
            states.set(State::Collapsed, true);
        } else if tag == Tag::Summary {
            // A details element's summary says whether it is open.
            if let Some(p) = self.parent(i).filter(|&p| self.tag(p) == Tag::Details) {
                f.expandable = true;
                let open = self.attr(p, A::Open).is_some();
                states.set(if open { State::Expanded } else { State::Collapsed }, true);
            }
        }
        if let Some(v) = self.attr(i, A::AriaChecked) {
            f.checkable = true;
            states.set(if v == "mixed" { State::Mixed } else { State::Checked }, v == "true" || v == "mixed");
        }
        if let Some(v) = self.attr(i, A::AriaPressed) {
            f.pressable = true;
            states.set(if v == "mixed" { State::Mixed } else { State::Pressed }, v == "true" || v == "mixed");
        }
        f.has_popup = self.attr(i, A::AriaHaspopup).is_some_and(|v| v != "false");
        let doc: &'s RawDoc = self.doc;
        let nodes = &doc.nodes;
        states.set(State::Selected, self.attr_true(i, A::AriaSelected) || nodes.option_selected.has(i));
        let editable_input = tag == Tag::Input
            && !matches!(
                input_type.as_str(),
                "checkbox" | "radio" | "button" | "submit" | "reset" | "image" | "file" | "range" | "color"
            );
        let contenteditable = self.editable_host(i);
        states.set(State::Editable, editable_input || tag == Tag::TextArea || contenteditable);
        // An editable host is a multi-line field unless it says otherwise.
        let multiline = match self.attr(i, A::AriaMultiline) {
            Some(v) => v.eq_ignore_ascii_case("true"),
            None => tag == Tag::TextArea || (contenteditable && matches!(role, Role::TextBox)),
        };
        states.set(State::Multiline, multiline);
        if tag == Tag::Input && matches!(input_type.as_str(), "checkbox" | "radio") {
            f.checkable = true;
            states.set(State::Checked, nodes.input_checked.has(i));
        }
        let focusable = match tag {
            Tag::A => self.attr(i, A::Href).is_some(),
            Tag::Button | Tag::Input | Tag::Select | Tag::TextArea | Tag::Summary | Tag::Frame => true,
            _ => false,
        } || self.attr(i, A::Tabindex).is_some()
            || contenteditable;
        states.set(State::Focusable, focusable && !disabled);
        node.level = match tag {
            Tag::Heading(l) => Some(l),
            _ => None,
        };
        if let Some(l) = self.attr(i, A::AriaLevel).and_then(|l| l.trim().parse().ok()) {
            node.level = Some(l);
        }
        // Never a password's value, whatever the type attribute's case: that there is one is
        // said as the accessibility tree's is after redaction.
        if input_type == "password" {
            let filled =
                nodes.input_value.get(i).and_then(|s| self.snap.string(s)).is_some_and(|v| !v.is_empty());
            node.value = filled.then(|| axsnap_core::secret::REDACTED.to_string());
        } else {
            node.value = match tag {
                Tag::Input
                    if !matches!(
                        input_type.as_str(),
                        "checkbox" | "radio" | "button" | "submit" | "reset"
                    ) =>
                {
                    nodes.input_value.get(i).and_then(|s| self.snap.string(s)).map(str::to_string)
                }
                Tag::TextArea => {
                    nodes.text_value.get(i).and_then(|s| self.snap.string(s)).map(str::to_string)
                }
                Tag::Select if role == Role::ComboBox => self.selected_option(i),
                // A range widget of ARIA's says its value in attributes.
                _ if matches!(
                    role,
                    Role::Slider | Role::SpinButton | Role::ProgressBar | Role::ScrollBar | Role::Meter
                ) =>
                {
                    self.attr(i, A::AriaValuetext).or_else(|| self.attr(i, A::AriaValuenow)).map(normalize)
                }
                _ => None,
            }
            .filter(|v| !v.is_empty());
        }
        node.range = self.range(i, tag, &input_type, &role);
        // An editable host that says it is a text field holds its text as its value, as the
        // browser's tree says (masked text is redacted with the rest of the capture).
        if contenteditable && node.value.is_none() && matches!(role, Role::TextBox | Role::SearchBox) {
            node.value = Some(self.content(i, false)).filter(|v| !v.is_empty());
        }
        if tag == Tag::A {
            node.url = self.attr(i, A::Href).map(|h| resolve(self.base_url, h));
        }
        node.name = self.name(i, tag, &input_type, &node.role, label, in_select);
        // A focusable generic is named by its tooltip (the browser does not show that name), so
        // the tooltip is no description there.
        let title_names = matches!(node.role, Role::Generic) && focusable;
        node.description = self.description(i, !title_names).filter(|d| *d != node.name);
        node.states = states;
        node.actions = actions_for(&node.role, states, f);
        node
    }

    /// A ranged control's bounds, as the browser's tree gives them: a range input's `min` and
    /// `max` (0 and 100 when unset) and its `step`, a number input's when it has both, an ARIA
    /// range widget's `aria-valuemin` and `aria-valuemax` (a slider's and a progress bar's
    /// are 0 and 100 when unset), a `<progress>`'s or `<meter>`'s own.
    fn range(&self, i: usize, tag: Tag, input_type: &str, role: &Role) -> Option<ValueRange> {
        let num = |a: A| self.attr(i, a).and_then(|v| v.trim().parse::<f64>().ok());
        match (tag, input_type) {
            (Tag::Input, "range") => {
                ValueRange::new(num(A::Min).unwrap_or(0.0), num(A::Max).unwrap_or(100.0), num(A::Step))
            }
            (Tag::Input, "number") => ValueRange::new(num(A::Min)?, num(A::Max)?, num(A::Step)),
            _ if matches!(role, Role::Slider | Role::ProgressBar | Role::SpinButton | Role::Meter) => {
                let min = num(A::AriaValuemin).or_else(|| num(A::Min));
                let max = num(A::AriaValuemax).or_else(|| num(A::Max));
                match role {
                    Role::Slider | Role::ProgressBar => {
                        ValueRange::new(min.unwrap_or(0.0), max.unwrap_or(100.0), None)
                    }
                    _ => ValueRange::new(min?, max?, None),
                }
            }
            _ => None,
        }
    }

    fn role(&mut self, i: usize, tag: Tag, input_type: &str, clickable: bool) -> Role {
        if let Some(r) = self.attr(i, A::Role).and_then(|r| r.split_whitespace().next()) {
            return self.roles.entry(r).or_insert_with(|| map_role(r)).clone();
        }
        let name = match tag {
            Tag::Skip | Tag::Plain | Tag::Block => "generic",
            // An anchor with a click handler and no href is still a link to the browser.
            Tag::A => {
                if self.attr(i, A::Href).is_some() || clickable {
                    "link"
                } else {
                    "generic"
                }
            }
            Tag::Button | Tag::Summary => "button",
            Tag::Input => super::tags::input_role(input_type),
            Tag::Select => {
                let size = self.attr(i, A::Size).and_then(|s| s.trim().parse::<u32>().ok()).unwrap_or(0);
                if self.attr(i, A::Multiple).is_some() || size > 1 {
                    "listbox"
                } else {
                    "combobox"
                }
            }
            Tag::OptGroup => "group",
            Tag::Option => "option",
            Tag::TextArea => "textbox",
            Tag::Heading(_) => "heading",
            Tag::Img | Tag::Svg => "image",
            Tag::Frame => "Iframe",
            Tag::Th => {
                if self.attr(i, A::Scope).is_some_and(|s| s.eq_ignore_ascii_case("row")) {
                    "rowheader"
                } else {
                    "columnheader"
                }
            }
            // A section is a region only when it is named.
            Tag::Section => {
                if self.attr(i, A::AriaLabel).is_some() || self.attr(i, A::AriaLabelledby).is_some() {
                    "region"
                } else {
                    "generic"
                }
            }
            Tag::Label | Tag::Legend => "label",
            Tag::Fieldset | Tag::Details => "group",
            // An item a user can reach in a menu is the menu's item, as the full capture
            // makes it (`lost_targets`): Lumino's submenu openers are such `li`s.
            Tag::Role("listitem") if self.in_menu(i) && self.reachable(i) => "menuitem",
            // An aside inside an article, section, nav or aside is part of that content, not
            // a landmark of the page (a Sphinx footnote), unless it is named.
            Tag::Role("complementary")
                if self.in_sectioning(i)
                    && self.attr(i, A::AriaLabel).is_none()
                    && self.attr(i, A::AriaLabelledby).is_none() =>
            {
                "generic"
            }
            Tag::Role(r) => r,
        };
        self.roles.entry(name).or_insert_with(|| map_role(name)).clone()
    }

    /// Element `i`'s parent node.
    pub(super) fn parent(&self, i: usize) -> Option<usize> {
        self.doc.nodes.parent_index.get(i).and_then(|&p| usize::try_from(p).ok()).filter(|&p| p < i)
    }

    /// Whether label `i` names a check box or radio button (the one it wraps or points to).
    pub(super) fn labels_toggle(&mut self, i: usize) -> bool {
        let toggle = |b: &mut Self, c: usize| {
            b.kind(c) == ELEMENT
                && b.tag(c) == Tag::Input
                && matches!(b.input_type(c).as_str(), "checkbox" | "radio")
                && b.drawn(c)
        };
        if let Some(target) = self.attr(i, A::For) {
            return self.ids().get(target).copied().is_some_and(|c| toggle(self, c));
        }
        // The first control inside, within a few levels (a label's content is small).
        let mut stack: Vec<(usize, u8)> = vec![(i, 0)];
        while let Some((p, depth)) = stack.pop() {
            let kids: Vec<usize> = self.children(p).iter().map(|&c| c as usize).collect();
            for c in kids {
                if self.kind(c) != ELEMENT {
                    continue;
                }
                match self.tag(c) {
                    Tag::Input | Tag::Select | Tag::TextArea | Tag::Button => return toggle(self, c),
                    _ if depth < 4 => stack.push((c, depth + 1)),
                    _ => {}
                }
            }
        }
        false
    }

    /// The first child element of `i` with tag `tag` (a details' summary, a fieldset's legend).
    pub(super) fn first_child(&mut self, i: usize, tag: Tag) -> Option<usize> {
        let kids: Vec<usize> = self.children(i).iter().map(|&c| c as usize).collect();
        kids.into_iter().find(|&c| self.kind(c) == ELEMENT && self.tag(c) == tag)
    }

    /// The text of the elements an ID reference list (`aria-labelledby`, `aria-describedby`)
    /// names, in its order.
    fn text_of(&mut self, ids: &str) -> String {
        let by_id = self.ids();
        let parts: Vec<usize> = ids.split_whitespace().filter_map(|id| by_id.get(id).copied()).collect();
        let text: Vec<String> = parts.into_iter().map(|p| self.own_text(p)).collect();
        normalize(&text.join(" "))
    }

    /// What element `i` contributes to a name that references it: a text field its value (as
    /// the browser computes it; a secret's is redacted with the rest of the capture), anything
    /// else its text content.
    fn own_text(&mut self, i: usize) -> String {
        let nodes = &self.doc.nodes;
        let value = match self.tag(i) {
            Tag::Input if super::tags::value_is_text(&self.input_type(i)) => nodes.input_value.get(i),
            Tag::TextArea => nodes.text_value.get(i),
            _ => None,
        };
        match value.and_then(|s| self.snap.string(s)) {
            Some(v) => normalize(v),
            None => self.content(i, false),
        }
    }

    /// The description: `aria-describedby`'s text, else `aria-description`, else the tooltip
    /// (`title`; the caller drops it when it is the name).
    fn description(&mut self, i: usize, title: bool) -> Option<String> {
        if let Some(d) =
            self.attr(i, A::AriaDescribedby).map(|ids| self.text_of(ids)).filter(|d| !d.is_empty())
        {
            return Some(d);
        }
        self.attr(i, A::AriaDescription)
            .or_else(|| if title { self.attr(i, A::Title) } else { None })
            .map(normalize)
            .filter(|d| !d.is_empty())
    }

    /// Whether element `i`'s parent element says it is a menu.
    /// Whether element `i` sits inside sectioning content (an article, section, nav or aside).
    fn in_sectioning(&mut self, i: usize) -> bool {
        let mut at = self.parent(i);
        for _ in 0..256 {
            let Some(p) = at else { return false };
            if matches!(self.tag(p), Tag::Section | Tag::Role("article" | "navigation" | "complementary")) {
                return true;
            }
            at = self.parent(p);
        }
        false
    }

    /// Whether element `i` sits in a menu (its parent has role `menu` or `menubar`).
    fn in_menu(&self, i: usize) -> bool {
        self.parent(i)
            .and_then(|p| self.attr(p, A::Role))
            .and_then(|r| r.split_whitespace().next())
            .is_some_and(|r| matches!(r, "menu" | "menubar"))
    }

    /// Whether a user can tab to element `i` or it says it opens a popup.
    fn reachable(&self, i: usize) -> bool {
        self.attr(i, A::Tabindex).and_then(|t| t.trim().parse::<i64>().ok()).is_some_and(|t| t >= 0)
            || self.attr(i, A::AriaHaspopup).is_some_and(|v| !matches!(v, "" | "false"))
    }

    /// The accessible name, most specific source first.
    pub(super) fn name(
        &mut self,
        i: usize,
        tag: Tag,
        input_type: &str,
        role: &Role,
        label: Option<usize>,
        in_select: bool,
    ) -> String {
        if let Some(name) =
            self.attr(i, A::AriaLabelledby).map(|ids| self.text_of(ids)).filter(|n| !n.is_empty())
        {
            return name;
        }
        if let Some(l) = self.attr(i, A::AriaLabel).map(normalize).filter(|l| !l.is_empty()) {
            return l;
        }
        let control = matches!(tag, Tag::Select | Tag::TextArea)
            || (tag == Tag::Input && !matches!(input_type, "button" | "submit" | "reset" | "image"));
        if control {
            let by_for = self.attr(i, A::Id).and_then(|id| self.labels().get(id).copied());
            if let Some(l) = by_for.or(label) {
                let name = self.content(l, false);
                if !name.is_empty() {
                    return name;
                }
            }
        }
        let own = match tag {
            Tag::Img => self.attr(i, A::Alt),
            Tag::Input => match input_type {
                "image" => self.attr(i, A::Alt),
                "submit" => self.attr(i, A::Value).or(Some("Submit")),
                "reset" => self.attr(i, A::Value).or(Some("Reset")),
                "button" => self.attr(i, A::Value),
                _ => None,
            },
            _ => None,
        };
        if let Some(own) = own.map(normalize).filter(|s| !s.is_empty()) {
            return own;
        }
        if let Some(l) = (tag == Tag::Fieldset).then(|| self.first_child(i, Tag::Legend)).flatten() {
            let name = self.content(l, false);
            if !name.is_empty() {
                return name;
            }
        }
        if named_by_content(role) {
            let name = self.content(i, in_select || tag == Tag::Option);
            if !name.is_empty() {
                return name;
            }
        }
        // Generic containers and paragraphs take no name from a tooltip.
        if matches!(role, Role::Generic | Role::None | Role::Paragraph | Role::Code) {
            return String::new();
        }
        let fallback =
            self.attr(i, A::Title).or_else(|| control.then(|| self.attr(i, A::Placeholder)).flatten());
        fallback.map(normalize).unwrap_or_default()
    }

    /// The text of a subtree (text nodes and image alt text), bounded.
    pub(super) fn content(&mut self, i: usize, in_select: bool) -> String {
        let mut out = String::new();
        // (node, its next child): no child list is copied, however wide the subtree.
        let mut stack: Vec<(usize, usize)> = vec![(i, 0)];
        let mut seen = 0;
        while let Some(top) = stack.last_mut() {
            let (p, k) = *top;
            let Some(&c) = self.children(p).get(k) else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            let c = c as usize;
            seen += 1;
            if seen > MAX_NAME_WALK || out.len() > MAX_NAME * 2 {
                break;
            }
            if self.walk_budget == 0 {
                self.names_cut = true;
                break;
            }
            self.walk_budget -= 1;
            match self.kind(c) {
                // Text laid out but not drawn (`visibility: hidden`, a heading's anchor
                // until hovered) is not in a name.
                TEXT if !in_select && !self.drawn(c) => {}
                TEXT => out.push_str(self.text(c, in_select).unwrap_or_default()),
                ELEMENT if self.generated(c) => out.push_str(self.text(c, false).unwrap_or_default()),
                // A tree item's or menu item's nested group is its children, not its name.
                ELEMENT if self.attr(c, A::Role).is_some_and(|r| r.trim() == "group") => {}
                ELEMENT if !self.excluded(c) => {
                    let tag = self.tag(c);
                    if tag == Tag::Img {
                        // An image's name: its alt text, else its tooltip.
                        let alt = self.attr(c, A::Alt).or_else(|| self.attr(c, A::Title));
                        out.push(' ');
                        out.push_str(alt.unwrap_or_default());
                        out.push(' ');
                    } else if !matches!(tag, Tag::Plain | Tag::A | Tag::Role("code")) {
                        out.push(' ');
                    }
                    stack.push((c, 0));
                }
                _ => {}
            }
        }
        normalize(&out)
    }

    /// The labels of select `i`'s options, in order, through its option groups.
    pub(super) fn select_options(&mut self, i: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack: Vec<usize> = self.children(i).iter().rev().map(|&c| c as usize).collect();
        while let Some(c) = stack.pop() {
            match self.tag(c) {
                Tag::Option if self.kind(c) == ELEMENT => out.push(self.content(c, true)),
                Tag::OptGroup => stack.extend(self.children(c).iter().rev().map(|&g| g as usize)),
                _ => {}
            }
        }
        out
    }

    fn selected_option(&mut self, i: usize) -> Option<String> {
        let mut first = None;
        let mut stack: Vec<usize> = self.children(i).iter().rev().map(|&c| c as usize).collect();
        while let Some(c) = stack.pop() {
            match self.tag(c) {
                Tag::Option if self.kind(c) == ELEMENT => {
                    if self.doc.nodes.option_selected.has(c) {
                        return Some(self.content(c, true));
                    }
                    first = first.or(Some(c));
                }
                Tag::OptGroup => stack.extend(self.children(c).iter().rev().map(|&g| g as usize)),
                _ => {}
            }
        }
        first.map(|c| self.content(c, true))
    }

    fn ids(&mut self) -> &HashMap<&'s str, usize> {
        if self.by_id.is_none() {
            let mut m = HashMap::new();
            for i in 0..self.n {
                if let Some(id) = self.attr(i, A::Id) {
                    m.entry(id).or_insert(i);
                }
            }
            self.by_id = Some(m);
        }
        self.by_id.get_or_insert_with(HashMap::new)
    }

    fn labels(&mut self) -> &HashMap<&'s str, usize> {
        if self.label_for.is_none() {
            let mut m = HashMap::new();
            for i in 0..self.n {
                if let Some(target) = self.attr(i, A::For) {
                    if self.kind(i) == ELEMENT && self.tag(i) == Tag::Label {
                        m.entry(target).or_insert(i);
                    }
                }
            }
            self.label_for = Some(m);
        }
        self.label_for.get_or_insert_with(HashMap::new)
    }
}
