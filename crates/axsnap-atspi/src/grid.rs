//! The cells of a table that manages its descendants (a spreadsheet), read through its Table
//! interface for the window on screen.
//!
//! LibreOffice Calc's sheet reports 2,147,483,647 children: reading them by index gives the
//! first 500, which is the first row far past the screen's right edge, and never row 3. What a
//! user sees is the window between the cells at the table's top-left and bottom-right corners
//! on screen (Component `GetAccessibleAtPoint`, their rows and columns through Table
//! `GetRowAtIndex` and `GetColumnAtIndex`); each of those cells is read with Table
//! `GetAccessibleAt`, all at once. Nothing walks a count the app reports.

use crate::bus::{iface, Bus};
use crate::error::AtspiError;
use crate::object::ObjectRef;

/// Table interface name.
const TABLE: &str = "org.a11y.atspi.Table";

/// Most cells read of one window: a very large screen of small cells is cut to the rows that
/// fit, and the note says so.
pub const MAX_GRID_CELLS: i32 = 2_000;

/// The window of a grid that was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridWindow {
    /// First and last row read (0-based, inclusive).
    pub rows: (i32, i32),
    /// First and last column read (0-based, inclusive).
    pub cols: (i32, i32),
    /// Rows on screen that were not read (past [`MAX_GRID_CELLS`]).
    pub rows_cut: i32,
    /// The table's size as the app reports it.
    pub n_rows: i32,
    /// See `n_rows`.
    pub n_cols: i32,
}

/// The cells on screen of table `obj`, row by row, with the window they cover; `None` when
/// the table does not say (no extents, no cell at its corners), so the caller falls back to
/// reading children by index.
pub async fn visible_cells(
    bus: &Bus,
    obj: &ObjectRef,
) -> Result<Option<(GridWindow, Vec<ObjectRef>)>, AtspiError> {
    let n_rows = bus.property::<i32>(obj, TABLE, "NRows");
    let n_cols = bus.property::<i32>(obj, TABLE, "NColumns");
    let extents = bus.call::<_, (i32, i32, i32, i32)>(obj, iface::COMPONENT, "GetExtents", &(0u32,));
    let (n_rows, n_cols, extents) = futures::join!(n_rows, n_cols, extents);
    let (Ok(n_rows), Ok(n_cols), Ok((x, y, w, h))) = (n_rows, n_cols, extents) else { return Ok(None) };
    if n_rows <= 0 || n_cols <= 0 || w <= 4 || h <= 4 {
        return Ok(None);
    }
    // A few pixels in from each corner: the corner pixel itself may be a grid line.
    let first = cell_at(bus, obj, x + 2, y + 2);
    let last = cell_at(bus, obj, x + w - 3, y + h - 3);
    let (first, last) = futures::join!(first, last);
    let (Some((r0, c0)), Some((r1, c1))) = (first?, last?) else { return Ok(None) };
    if r1 < r0 || c1 < c0 {
        return Ok(None);
    }
    let width = c1 - c0 + 1;
    let fit = (MAX_GRID_CELLS / width).max(1);
    let last_row = r1.min(r0 + fit - 1);
    let calls = (r0..=last_row).flat_map(|r| (c0..=c1).map(move |c| (r, c))).map(|(r, c)| async move {
        bus.call::<_, (String, zbus::zvariant::OwnedObjectPath)>(obj, TABLE, "GetAccessibleAt", &(r, c)).await
    });
    let cells = crate::fetch::objects_of(futures::future::join_all(calls).await)?;
    let window = GridWindow { rows: (r0, last_row), cols: (c0, c1), rows_cut: r1 - last_row, n_rows, n_cols };
    Ok(Some((window, cells)))
}

/// The (row, column) of the cell of table `obj` at screen point (`x`, `y`).
async fn cell_at(bus: &Bus, obj: &ObjectRef, x: i32, y: i32) -> Result<Option<(i32, i32)>, AtspiError> {
    let hit = bus
        .call::<_, (String, zbus::zvariant::OwnedObjectPath)>(
            obj,
            iface::COMPONENT,
            "GetAccessibleAtPoint",
            &(x, y, 0u32),
        )
        .await;
    let cell = match hit {
        Ok(c) => ObjectRef::from(c),
        Err(e @ AtspiError::Timeout { .. }) => return Err(e),
        Err(_) => return Ok(None),
    };
    if cell.is_null() {
        return Ok(None);
    }
    let Ok(index) = bus.call::<_, i32>(&cell, iface::ACCESSIBLE, "GetIndexInParent", &()).await else {
        return Ok(None);
    };
    let arg = (index,);
    let row = bus.call::<_, i32>(obj, TABLE, "GetRowAtIndex", &arg);
    let col = bus.call::<_, i32>(obj, TABLE, "GetColumnAtIndex", &arg);
    match futures::join!(row, col) {
        (Ok(r), Ok(c)) if r >= 0 && c >= 0 => Ok(Some((r, c))),
        _ => Ok(None),
    }
}
