//! Form fields told the truth: native inputs whose value no typing sets (date, time, month,
//! week, datetime-local, color, range) are filled the way a user's pick lands, and after
//! `fill`, `type` and `select` the field is read back, so an edit that did not take is an error
//! ([`CdpError::NoEffect`]) instead of a success whose diff says only that focus moved.

use serde_json::{json, Value};

use crate::error::CdpError;
use crate::locate::{call_on, Element};

/// Fills a native date, time, month, week, datetime-local, color or range input (or the input
/// whose inner part `el` is: the spin fields of a date input live in its shadow tree) by its
/// value, with the `input` and `change` events a user's pick sends. The prototype's setter is
/// used so that frameworks tracking the value (React) see the change. Answers `{native:
/// false}` for any other element, `{malformed, format}` for a value the type cannot hold.
const NATIVE_FILL_JS: &str = "function(value) {
  let t = this;
  const root = t.getRootNode && t.getRootNode();
  if (!(t instanceof HTMLInputElement) && root instanceof ShadowRoot && root.host instanceof HTMLInputElement) t = root.host;
  const formats = {
    date: [/^\\d{4,}-\\d{2}-\\d{2}$/, 'yyyy-mm-dd, e.g. 2011-10-11'],
    time: [/^\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?$/, 'hh:mm or hh:mm:ss (24 h), e.g. 11:34'],
    'datetime-local': [/^\\d{4,}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?$/, 'yyyy-mm-ddThh:mm, e.g. 2011-10-11T11:34'],
    month: [/^\\d{4,}-\\d{2}$/, 'yyyy-mm, e.g. 2011-10'],
    week: [/^\\d{4,}-W\\d{2}$/, 'yyyy-Www, e.g. 2011-W41'],
    color: [/^#[0-9a-fA-F]{6}$/, '#rrggbb, e.g. #ff0000'],
    range: [/^-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$/, 'a number'],
  };
  if (!(t instanceof HTMLInputElement) || !(t.type in formats)) return {native: false};
  const [pattern, format] = formats[t.type];
  if (t.disabled) return {native: true, refused: 'it is disabled'};
  if (t.readOnly) return {native: true, refused: 'it is read-only'};
  let v = String(value).trim();
  if (t.type === 'color') v = v.toLowerCase();
  if (v === '' && t.type !== 'range' && t.type !== 'color') {
    // Empty clears the field, as deleting its parts does.
  } else if (!pattern.test(v)) {
    return {native: true, malformed: true, type: t.type, format};
  }
  const before = t.value;
  t.focus();
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(t, v);
  if (v !== '' && t.value === '') return {native: true, malformed: true, type: t.type, format};
  if (t.type === 'range' && Number(t.value) !== Number(v)) {
    // The browser moved it to a step inside its range: not what was asked, so not kept.
    const held = t.value;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(t, before);
    const min = t.min || '0', max = t.max || '100', step = t.step || '1';
    return {native: true, malformed: true, type: t.type,
            format: `a number from ${min} to ${max} in steps of ${step} (${v} would be ${held})`};
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

/// What a native fill answered.
pub(crate) enum NativeFill {
    /// Not a native input of a kind typing cannot set: fill it by typing.
    NotNative,
    /// Filled.
    Done,
}

/// Fills `el` by value when it is a native input of a kind typing cannot set.
pub(crate) async fn fill_native(
    page: &crate::page::PageHandle,
    el: &Element,
    text: &str,
) -> Result<NativeFill, CdpError> {
    let v = call_on(page, el, NATIVE_FILL_JS, &[json!(text)]).await?;
    if v.get("native").and_then(Value::as_bool) != Some(true) {
        return Ok(NativeFill::NotNative);
    }
    if let Some(why) = v.get("refused").and_then(Value::as_str) {
        return Err(no_effect(el, "fill", text, None, why));
    }
    if v.get("malformed").and_then(Value::as_bool) == Some(true) {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("input").to_string();
        let format = v.get("format").and_then(Value::as_str).unwrap_or("its own format").to_string();
        return Err(CdpError::BadValue { target: el.desc.clone(), kind, value: text.to_string(), format });
    }
    Ok(NativeFill::Done)
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
