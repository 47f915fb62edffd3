//! VARIANTs as UI Automation hands them over, read strictly by their type.
//!
//! A value comes from another process, so nothing here trusts it: a VARIANT of another type
//! than the one a property has (UIA's "not supported" sentinel is a `VT_UNKNOWN`, a mixed
//! value another), an array of the wrong shape or element type, reads as `None`, and the
//! caller puts the field's default in its place.

use windows::Win32::System::Com::SAFEARRAY;
use windows::Win32::System::Ole::{
    SafeArrayGetDim, SafeArrayGetElement, SafeArrayGetElemsize, SafeArrayGetLBound, SafeArrayGetUBound,
};
use windows::Win32::System::Variant::{VARENUM, VARIANT, VT_ARRAY, VT_BOOL, VT_BSTR, VT_I4, VT_R8};

/// Most items an array is read to: a RuntimeId has a handful, a rectangle four.
const MAX_ITEMS: i32 = 64;

/// A `VT_BSTR` as a string.
pub(crate) fn string(v: &VARIANT) -> Option<String> {
    if v.vt() != VT_BSTR {
        return None;
    }
    // SAFETY: the type says the union holds a BSTR, which the VARIANT owns and keeps alive
    // while it is borrowed; a null BSTR reads as the empty string.
    let s = unsafe { &v.Anonymous.Anonymous.Anonymous.bstrVal };
    Some(String::from_utf16_lossy(s))
}

/// A `VT_I4`.
pub(crate) fn int(v: &VARIANT) -> Option<i32> {
    // SAFETY: the union is read as the member its type names.
    (v.vt() == VT_I4).then(|| unsafe { v.Anonymous.Anonymous.Anonymous.lVal })
}

/// A `VT_BOOL` (`VARIANT_TRUE` is -1; anything but 0 is taken as true).
pub(crate) fn boolean(v: &VARIANT) -> Option<bool> {
    // SAFETY: the union is read as the member its type names.
    (v.vt() == VT_BOOL).then(|| unsafe { v.Anonymous.Anonymous.Anonymous.boolVal.0 } != 0)
}

/// A `VT_R8` (an `VT_I4` is taken too: some providers give whole numbers so).
pub(crate) fn double(v: &VARIANT) -> Option<f64> {
    if v.vt() == VT_R8 {
        // SAFETY: the union is read as the member its type names.
        return Some(unsafe { v.Anonymous.Anonymous.Anonymous.dblVal });
    }
    int(v).map(f64::from)
}

/// A one-dimensional `VT_ARRAY | VT_I4` (a RuntimeId).
pub(crate) fn ints(v: &VARIANT) -> Option<Vec<i64>> {
    let sa = array::<i32>(v, VT_I4)?;
    items::<i32>(sa).map(|a| a.into_iter().map(i64::from).collect())
}

/// A one-dimensional `VT_ARRAY | VT_R8` (a BoundingRectangle).
pub(crate) fn doubles(v: &VARIANT) -> Option<Vec<f64>> {
    let sa = array::<f64>(v, VT_R8)?;
    items::<f64>(sa)
}

/// The SAFEARRAY of a `VT_ARRAY | item` VARIANT, checked to be one-dimensional with items of
/// `T`'s size (what makes copying them out sound; the VARIANT's type already names `item`,
/// and not every array records its own).
fn array<T>(v: &VARIANT, item: VARENUM) -> Option<*const SAFEARRAY> {
    if v.vt() != VARENUM(VT_ARRAY.0 | item.0) {
        return None;
    }
    // SAFETY: the type says the union holds a SAFEARRAY pointer, owned by the VARIANT.
    let sa: *const SAFEARRAY = unsafe { v.Anonymous.Anonymous.Anonymous.parray };
    if sa.is_null() {
        return None;
    }
    // SAFETY: `sa` is the VARIANT's live, non-null array; these only read its descriptor.
    let (dims, size) = unsafe { (SafeArrayGetDim(sa), SafeArrayGetElemsize(sa)) };
    (dims == 1 && size as usize == std::mem::size_of::<T>()).then_some(sa)
}

/// The items of a checked one-dimensional array, copied out one by one (no lock on its
/// data), at most [`MAX_ITEMS`].
fn items<T: Copy + Default>(sa: *const SAFEARRAY) -> Option<Vec<T>> {
    // SAFETY: `sa` was checked by `array` to be a live one-dimensional array of `T`-sized items.
    let (lo, hi) = unsafe { (SafeArrayGetLBound(sa, 1).ok()?, SafeArrayGetUBound(sa, 1).ok()?) };
    if hi < lo {
        return Some(Vec::new());
    }
    if hi.saturating_sub(lo) >= MAX_ITEMS {
        return None;
    }
    let mut out = Vec::with_capacity((hi - lo + 1) as usize);
    for i in lo..=hi {
        let mut item = T::default();
        // SAFETY: `i` is within the array's bounds and `item` is an element of its type,
        // which SafeArrayGetElement copies into.
        unsafe { SafeArrayGetElement(sa, &i, (&mut item as *mut T).cast()) }.ok()?;
        out.push(item);
    }
    Some(out)
}
