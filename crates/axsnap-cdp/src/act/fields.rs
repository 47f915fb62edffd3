//! Form fields told the truth: native inputs whose value no typing sets (date, time, month,
//! week, datetime-local, color, range) are filled the way a user's pick lands, and after
//! `fill`, `type` and `select` the field is read back, so an edit that did not take is an error
//! ([`CdpError::NoEffect`]) instead of a success whose diff says only that focus moved. A value
//! the field's type refuses is refused before anything is written ([`CdpError::BadValue`]).

use axsnap_core::backend::Refusal;
use serde_json::{json, Value};

use crate::error::CdpError;
use crate::locate::{call_on, not_actionable, Element};

/// Checks a fill's value against the input's type before anything is written, and fills a
/// native date, time, month, week, datetime-local, color or range input (or the input whose
/// inner part `el` is: the spin fields of a date input live in its shadow tree) by its value,
/// with the `input` and `change` events a user's pick sends. The prototype's setter is used so
/// that frameworks tracking the value (React) see the change.
///
/// A value the type refuses is refused before the field is touched: the browser's own value
/// setter empties a date given `2011-13-45` without an event, which left a framework's model
/// (ipywidgets, JupyterLab's settings) holding the old value while the page showed none. What
/// the browser makes of a value is read on a detached input of the same type, so the check is
/// the browser's own sanitization, not a second copy of the HTML Standard's.
///
/// Answers `{native: false}` for an element typing fills, `{typed}` for a number input whose
/// value is good to type (trimmed), `{refused}` for a disabled or read-only input, `{malformed,
/// type, format}` for a value the type refuses, and `{native: true, value}` once filled.
const NATIVE_FILL_JS: &str = "function(value) {
  let t = this;
  const root = t.getRootNode && t.getRootNode();
  if (!(t instanceof HTMLInputElement) && root instanceof ShadowRoot && root.host instanceof HTMLInputElement) t = root.host;
  const formats = {
    date: 'yyyy-mm-dd, e.g. 2011-10-11',
    time: 'hh:mm or hh:mm:ss (24 h), e.g. 11:34',
    'datetime-local': 'yyyy-mm-ddThh:mm (or a space for the T), e.g. 2011-10-11T11:34',
    month: 'yyyy-mm, e.g. 2011-10',
    week: 'yyyy-Www, e.g. 2011-W41',
    color: '#rrggbb, #rgb or a CSS colour without transparency (red, rgb(255 0 0), hsl(0 100% 50%)), e.g. #ff0000',
    range: 'a number in its range',
    number: 'a number (digits, an optional - and . and exponent), e.g. 42, -1.5 or 1e3',
  };
  if (!(t instanceof HTMLInputElement) || !(t.type in formats)) return {native: false};
  if (t.disabled) return {refused: 'disabled'};
  if (t.readOnly) return {refused: 'readonly'};
  let v = String(value).trim();
  const bad = (format) => ({malformed: true, type: t.type, format: format || formats[t.type]});
  // The browser's own reading of a value, on an input nobody sees (a range's bounds copied).
  const probe = (type, v) => {
    const p = document.createElement('input');
    p.type = type;
    for (const a of ['min', 'max', 'step']) if (type === t.type && t.hasAttribute(a)) p.setAttribute(a, t.getAttribute(a));
    p.value = v;
    return p.value;
  };
  // A CSS colour as #rrggbb, read through a canvas (browsers before the colour input took CSS
  // colours made red #000000); null for what is no colour or has transparency the field
  // cannot hold.
  const colour = (v) => {
    if (/^#[0-9a-f]{6}$/i.test(v)) return v.toLowerCase();
    const g = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
    if (!g) return null;
    // A string the canvas cannot read leaves its style as it was: two different ones tell.
    g.fillStyle = '#000001'; g.fillStyle = v; const first = g.fillStyle;
    g.fillStyle = '#000002'; g.fillStyle = v;
    if (first !== g.fillStyle) return null;
    if (/^#[0-9a-f]{6}$/.test(first)) return first;
    // Other colour spaces (oklch(), color(display-p3 ...)) serialize as themselves: the pixel
    // they paint is their sRGB value.
    g.canvas.width = g.canvas.height = 1;
    g.fillStyle = v;
    g.fillRect(0, 0, 1, 1);
    const [r, gr, b, a] = g.getImageData(0, 0, 1, 1).data;
    if (a !== 255) return null;
    return '#' + [r, gr, b].map((x) => x.toString(16).padStart(2, '0')).join('');
  };
  let landed;
  if (t.type === 'number') {
    // Typed, as a person would; but text the field cannot hold empties it, so it is refused first.
    if (v !== '' && probe('number', v) === '') return bad();
    return {typed: v};
  } else if (t.type === 'color') {
    landed = colour(v);
    if (landed === null) return bad();
    v = landed;
  } else if (t.type === 'range') {
    const span = `a number from ${t.min || '0'} to ${t.max || '100'} in steps of ${t.step || '1'}`;
    if (probe('number', v) === '') return bad(span);
    landed = probe('range', v);
    // The browser would move it to a step inside its range: not what was asked.
    if (Number(landed) !== Number(v)) return bad(`${span} (${v} would be ${landed})`);
  } else {
    // The HTML Standard's datetime-local takes a space for the T; older browsers do not.
    if (t.type === 'datetime-local') v = v.replace(/^(\\d{4,}-\\d{2}-\\d{2}) +(?=\\d)/, '$1T');
    // Empty clears the field, as deleting its parts does.
    landed = v === '' ? '' : probe(t.type, v);
    if (v !== '' && landed === '') return bad();
  }
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const before = t.value;
  t.focus();
  set.call(t, v);
  if (t.value !== landed) {
    // The field read it otherwise than its detached twin: the old value goes back with no
    // event, as none announced the change, so the page's model never saw it.
    set.call(t, before);
    return bad();
  }
  t.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  t.dispatchEvent(new Event('change', {bubbles: true}));
  return {native: true, value: t.value};
}";

/// The field's value as the page holds it now, and why it may not take an edit (`{value,
/// disabled, readonly}`; `value` is null for an element that holds none). A native input's
/// inner part answers for its input.
const VALUE_JS: &str = "function() {
  let t = this;
  const root = t.getRootNode && t.getRootNode();
  if (!(t instanceof HTMLInputElement) && root instanceof ShadowRoot && root.host instanceof HTMLInputElement) t = root.host;
  if (t instanceof HTMLLabelElement && t.control) t = t.control;
  const field = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;
  let value = null;
  // A secret's value is never read: it is compared with nothing and said nowhere.
  if (t.type === 'password') return {value: '', password: true};
  if (field) value = t.value;
  else if (t instanceof HTMLSelectElement) value = [...t.selectedOptions].map((o) => (o.label || '').replace(/\\s+/g, ' ').trim()).join(', ');
  else if (t.isContentEditable) value = t.innerText;
  return {value, disabled: !!t.disabled, readonly: !!t.readOnly, password: t.type === 'password', type: t.type || null};
}";

/// What a fill's first look at the field found.
#[derive(Debug)]
pub(crate) enum NativeFill {
    /// Not an input whose value the type checks: fill it by typing `text` as given.
    NotNative,
    /// A number input and a value it holds: type this (the value, trimmed).
    Type(String),
    /// Filled by value; the field holds this (a colour name as `#rrggbb`, a datetime-local's
    /// space as `T`), which is what its read-back is to find.
    Done(String),
}

/// Checks `text` against the type of the input `el` is before anything is written, and fills
/// it by value when it is a native input of a kind typing cannot set. A value the type
/// refuses is [`CdpError::BadValue`] and a read-only input is refused as such; either leaves
/// the field as it was, with no event sent.
pub(crate) async fn fill_native(
    page: &crate::page::PageHandle,
    el: &Element,
    text: &str,
) -> Result<NativeFill, CdpError> {
    let v = call_on(page, el, NATIVE_FILL_JS, &[json!(text)]).await?;
    match v.get("refused").and_then(Value::as_str) {
        Some("readonly") => return Err(not_actionable(Refusal::ReadOnly, "fill", el, "it is read-only")),
        Some(_) => {
            return Err(not_actionable(
                Refusal::Disabled,
                "fill",
                el,
                "it is disabled; enable it first or pick another element",
            ))
        }
        None => {}
    }
    if v.get("malformed").and_then(Value::as_bool) == Some(true) {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("input").to_string();
        let format = v.get("format").and_then(Value::as_str).unwrap_or("its own format").to_string();
        return Err(CdpError::BadValue { target: el.desc.clone(), kind, value: text.to_string(), format });
    }
    if let Some(typed) = v.get("typed").and_then(Value::as_str) {
        return Ok(NativeFill::Type(typed.to_string()));
    }
    if v.get("native").and_then(Value::as_bool) != Some(true) {
        return Ok(NativeFill::NotNative);
    }
    let landed = v.get("value").and_then(Value::as_str).unwrap_or(text);
    Ok(NativeFill::Done(landed.to_string()))
}

/// The field's current value (`None`: the element holds no value, or it is a secret, which is
/// never compared or said).
pub(crate) async fn value(page: &crate::page::PageHandle, el: &Element) -> Result<Option<Field>, CdpError> {
    let v = call_on(page, el, VALUE_JS, &[]).await?;
    let Some(value) = v.get("value").and_then(Value::as_str) else { return Ok(None) };
    let flag = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
    Ok(Some(Field {
        value: value.to_string(),
        disabled: flag("disabled"),
        readonly: flag("readonly"),
        secret: flag("password"),
        kind: v.get("type").and_then(Value::as_str).map(str::to_string),
    }))
}

/// A field as read back.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    value: String,
    disabled: bool,
    readonly: bool,
    secret: bool,
    kind: Option<String>,
}

/// What an edit asked of a field.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Edit<'a> {
    /// `fill`: the field's whole value.
    Fill(&'a str),
    /// `type`: text added at the caret.
    Type(&'a str),
    /// `select`: these options chosen.
    Select(&'a [String]),
}

/// Whether the edit took, from the field before and after it (read once the page settled):
/// an error when the field holds what it held before (nothing took: a script reverted it, the
/// page refused the keys) or, for `fill` and `select`, none of what was asked. A page that
/// reformats what was typed (a phone mask, a number's form) took the edit. Secrets are never
/// compared.
pub(crate) fn check(
    el: &Element,
    edit: Edit<'_>,
    before: Option<&Field>,
    after: Option<&Field>,
) -> Result<(), CdpError> {
    let (Some(after), Some(before)) = (after, before) else { return Ok(()) };
    if after.secret || before.secret {
        return Ok(());
    }
    let same = |a: &str, b: &str| a.split_whitespace().eq(b.split_whitespace());
    let (action, wanted, took) = match edit {
        Edit::Fill(text) => {
            let unchanged = after.value == before.value && !same(&after.value, text);
            let lost = after.value.trim().is_empty() && !text.trim().is_empty();
            let took = same(&after.value, text)
                || (after.kind.as_deref() == Some("color") && after.value.eq_ignore_ascii_case(text.trim()))
                || (!unchanged && !lost);
            ("fill", text.to_string(), took)
        }
        Edit::Type(text) => ("type", text.to_string(), text.is_empty() || after.value != before.value),
        Edit::Select(values) => {
            let took = values.iter().all(|w| after.value.split(", ").any(|v| same(v, w)))
                || (after.value != before.value && !after.value.is_empty());
            ("select", values.join(", "), took)
        }
    };
    if took {
        return Ok(());
    }
    let why = if after.disabled {
        "it is disabled"
    } else if after.readonly {
        "it is read-only"
    } else if after.value == before.value {
        "the page kept its value (a script reverted it, or it refused the input)"
    } else {
        "the page changed it to something else"
    };
    Err(no_effect(el, action, &wanted, Some(&after.value), why))
}

fn no_effect(el: &Element, action: &str, wanted: &str, holds: Option<&str>, why: &str) -> CdpError {
    CdpError::NoEffect {
        action: action.to_string(),
        target: el.desc.clone(),
        wanted: wanted.to_string(),
        holds: holds.map(str::to_string),
        why: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(value: &str) -> Field {
        Field { value: value.into(), disabled: false, readonly: false, secret: false, kind: None }
    }

    fn el() -> Element {
        Element {
            native: "f/1".into(),
            session: String::new(),
            backend: 1,
            object: String::new(),
            desc: "input \"Name\"".into(),
            hops: Vec::new(),
        }
    }

    #[test]
    fn a_fill_that_took_or_was_reformatted_is_fine() {
        let (b, a) = (field(""), field("Ada"));
        assert!(check(&el(), Edit::Fill("Ada"), Some(&b), Some(&a)).is_ok());
        let a = field("(555) 123-4");
        assert!(check(&el(), Edit::Fill("5551234"), Some(&b), Some(&a)).is_ok());
        // Nothing to compare: no error.
        assert!(check(&el(), Edit::Fill("x"), None, Some(&a)).is_ok());
    }

    #[test]
    fn a_fill_the_page_reverted_or_emptied_is_no_effect() {
        let (b, a) = (field("old"), field("old"));
        let e = check(&el(), Edit::Fill("new"), Some(&b), Some(&a)).expect_err("reverted");
        let text = e.to_string();
        assert!(
            text.contains("\"new\"") && text.contains("holds \"old\"") && text.contains("reverted"),
            "{text}"
        );
        let e = check(&el(), Edit::Fill("new"), Some(&field("")), Some(&field(""))).expect_err("empty");
        assert!(matches!(e, CdpError::NoEffect { .. }));
        let disabled = Field { disabled: true, ..field("") };
        let text =
            check(&el(), Edit::Fill("x"), Some(&field("")), Some(&disabled)).expect_err("").to_string();
        assert!(text.contains("disabled"), "{text}");
    }

    #[test]
    fn type_and_select() {
        assert!(check(&el(), Edit::Type("b"), Some(&field("a")), Some(&field("ab"))).is_ok());
        assert!(check(&el(), Edit::Type("b"), Some(&field("a")), Some(&field("a"))).is_err());
        let values = vec!["French".to_string()];
        assert!(check(&el(), Edit::Select(&values), Some(&field("English")), Some(&field("French"))).is_ok());
        assert!(
            check(&el(), Edit::Select(&values), Some(&field("English")), Some(&field("English"))).is_err()
        );
    }

    #[test]
    fn secrets_are_never_compared() {
        let secret = Field { secret: true, ..field("") };
        assert!(check(&el(), Edit::Fill("hunter2"), Some(&secret), Some(&secret)).is_ok());
    }
}
