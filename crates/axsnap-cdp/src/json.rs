//! Lenient, borrowed reading of CDP answers: a string, boolean or number is read in place
//! (borrowed from the JSON value when it can be), anything else is skipped without being
//! built, and nothing the browser adds later fails a parse.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// A string, borrowed from the JSON value when it can be (serde's own `Cow` support borrows
/// only a field's outermost `Cow`, not one inside an `Option` or a `Vec`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Text<'a>(pub Cow<'a, str>);

impl std::ops::Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Scalar::deserialize(d)? {
            Scalar::Str(s) => Ok(Text(s)),
            // Ids are strings today; a number would still name a node.
            Scalar::Int(i) => Ok(Text(Cow::Owned(i.to_string()))),
            _ => Err(de::Error::custom("expected a string")),
        }
    }
}

/// A JSON value reduced to what AX values carry: a string, boolean or number. Lists and
/// objects (related nodes, sources) are skipped without being built.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Scalar<'a> {
    /// Absent, null, or a list or object.
    #[default]
    None,
    /// A string.
    Str(Cow<'a, str>),
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// Any other number.
    Float(f64),
}

impl Scalar<'_> {
    /// The value as text: strings as they are, numbers and booleans formatted, else `None`.
    pub fn text(&self) -> Option<String> {
        match self {
            Scalar::Str(s) => Some(s.to_string()),
            Scalar::Int(i) => Some(i.to_string()),
            // Formatted as serde_json formats numbers, which is what this crate always sent.
            Scalar::Float(f) => serde_json::Number::from_f64(*f).map(|n| n.to_string()),
            Scalar::Bool(b) => Some(b.to_string()),
            Scalar::None => None,
        }
    }

    /// The value as a boolean; `"true"`/`"false"` strings count.
    pub fn truthy(&self) -> bool {
        match self {
            Scalar::Bool(b) => *b,
            Scalar::Str(s) => !s.is_empty() && s != "false",
            Scalar::Int(i) => *i != 0,
            Scalar::Float(f) => *f != 0.0,
            Scalar::None => false,
        }
    }

    /// The value as a number: numbers, and strings that read as one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Scalar::Int(i) => Some(*i as f64),
            Scalar::Float(f) => Some(*f),
            Scalar::Str(s) => s.trim().parse().ok(),
            Scalar::Bool(_) | Scalar::None => None,
        }
    }

    /// The value as a non-negative integer that fits a `u32`.
    pub fn as_u32(&self) -> Option<u32> {
        match self {
            Scalar::Int(i) => u32::try_from(*i).ok(),
            Scalar::Float(f) if f.fract() == 0.0 && *f >= 0.0 && *f <= u32::MAX as f64 => Some(*f as u32),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Scalar<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(s)))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
                Ok(Scalar::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Self::Value, E> {
                Ok(Scalar::Int(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Self::Value, E> {
                Ok(i64::try_from(u).map(Scalar::Int).unwrap_or(Scalar::Float(u as f64)))
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<Self::Value, E> {
                Ok(Scalar::Float(f))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Scalar::None)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Scalar::None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_any(V)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::None)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::None)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_read_leniently() {
        let v: Vec<Scalar> =
            serde_json::from_str(r#"["a\"b", true, 3, 2.5, null, [1, {"x": 2}], {"y": []}]"#).unwrap();
        assert_eq!(v[0], Scalar::Str("a\"b".into()));
        assert_eq!(v[1].text().as_deref(), Some("true"));
        assert_eq!((v[2].text().as_deref(), v[2].as_u32()), (Some("3"), Some(3)));
        assert_eq!(v[3].text().as_deref(), Some("2.5"));
        assert!(v[4..].iter().all(|s| *s == Scalar::None));
        assert!(Scalar::Str("x".into()).truthy() && !Scalar::Str("false".into()).truthy());
        let t: Vec<Text> = serde_json::from_str(r#"["id", 7]"#).unwrap();
        assert_eq!((&*t[0], &*t[1]), ("id", "7"));
    }
}
