//! Find's query set: what people type, and the element they mean, over the recorded fixtures.
//!
//! Every case runs the real pipeline (project, refs) on a fixture in `fixtures/trees/` and asks
//! `find` for its top hit. The set must keep top-1 at or above 95%; misses are printed with
//! what came first instead. `cargo test -p axsnap-core --test find_queries -- --nocapture`
//! prints the figure.

use axsnap_core::find::find;
use axsnap_core::interchange::read_tree;
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::{Ref, TargetId, Tree};

/// (fixture, query, expected element as `role "name"`, with ` #N` for the Nth element of that
/// role and name in document order when names repeat).
const CASES: &[(&str, &str, &str)] = &[
    // The settings form (fixtures/pages/settings.html).
    ("settings", "language select", r#"combobox "Language""#),
    ("settings", "language dropdown", r#"combobox "Language""#),
    ("settings", "plan pro", r#"radio "Pro""#),
    ("settings", "pro plan", r#"radio "Pro""#),
    ("settings", "support pro", r#"radio "Pro" #2"#),
    ("settings", "team plan radio", r#"radio "Team""#),
    ("settings", "free plan option", r#"radio "Free""#),
    ("settings", "yearly billing", r#"radio "Yearly (save 20%)""#),
    ("settings", "monthly", r#"radio "Monthly""#),
    ("settings", "dark mode toggle", r#"switch "Dark mode""#),
    ("settings", "dark mode switch", r#"switch "Dark mode""#),
    ("settings", "enable dark mode", r#"switch "Dark mode""#),
    ("settings", "weekly digest toggle", r#"switch "Weekly digest""#),
    ("settings", "email notifications checkbox", r#"checkbox "Email notifications""#),
    ("settings", "push notification", r#"checkbox "Push notifications""#),
    ("settings", "sms alerts", r#"checkbox "SMS alerts""#),
    ("settings", "display name field", r#"textbox "Display name""#),
    ("settings", "name input", r#"textbox "Display name""#),
    ("settings", "email field", r#"textbox "Email address""#),
    ("settings", "e-mail", r#"textbox "Email address""#),
    ("settings", "bio", r#"textbox "Bio""#),
    ("settings", "website field", r#"textbox "Website""#),
    ("settings", "time zone dropdown", r#"combobox "Time zone""#),
    ("settings", "timezone", r#"combobox "Time zone""#),
    ("settings", "theme picker", r#"combobox "Theme""#),
    ("settings", "font size slider", r#"slider "Font size""#),
    ("settings", "items per page", r#"spinbutton "Items per page""#),
    ("settings", "upload avatar button", r#"button "Upload avatar""#),
    ("settings", "current password", r#"textbox "Current password""#),
    ("settings", "new password field", r#"textbox "New password""#),
    ("settings", "change password", r#"button "Change password""#),
    ("settings", "two factor", r#"button "Enable two-factor authentication""#),
    ("settings", "authenticator app", r#"button "Enable two-factor authentication""#),
    ("settings", "revoke laptop token", r#"button "Revoke" #2"#),
    ("settings", "revoke ci deploy", r#"button "Revoke""#),
    ("settings", "new token", r#"button "New token""#),
    ("settings", "beta features", r#"checkbox "Enable beta features""#),
    ("settings", "webhook url", r#"textbox "Webhook URL""#),
    ("settings", "export data", r#"button "Export data""#),
    ("settings", "delete account", r#"button "Delete account""#),
    ("settings", "permanently remove account", r#"button "Delete account""#),
    ("settings", "save", r#"button "Save changes""#),
    ("settings", "save changes button", r#"button "Save changes""#),
    ("settings", "reset button", r#"button "Reset""#),
    ("settings", "cancel link", r#"link "Cancel""#),
    ("settings", "search settings", r#"searchbox "Search settings""#),
    ("settings", "search box", r#"searchbox "Search settings""#),
    ("settings", "account menu", r#"button "Account menu""#),
    ("settings", "notifications link", r#"link "Notifications""#),
    ("settings", "privacy policy", r#"link "Privacy policy""#),
    ("settings", "make profile public", r#"checkbox "Make profile public""#),
    ("settings", "online status switch", r#"switch "Show online status""#),
    ("settings", "search engines", r#"checkbox "Allow search engines to index my profile""#),
    ("settings", "compact layout checkbox", r#"checkbox "Compact layout""#),
    ("settings", "help", r#"link "Help""#),
    ("settings", "birthday", r#"date "Birthday""#),
    ("settings", "quiet hours", r#"time "Quiet hours start""#),
    ("settings", "theme dropdown", r#"combobox "Theme""#),
    ("settings", "profile section", r#"region "Profile""#),
    ("settings", "security section", r#"region "Security""#),
    ("settings", "plan radio buttons", r#"radio "Free""#),
    ("settings", "avatar", r#"button "Upload avatar""#),
    ("settings", "password", r#"textbox "Current password""#),
    ("settings", "yearly", r#"radio "Yearly (save 20%)""#),
    ("settings", "save 20%", r#"radio "Yearly (save 20%)""#),
    ("settings", "cancel", r#"link "Cancel""#),
    ("settings", "index my profile", r#"checkbox "Allow search engines to index my profile""#),
    ("settings", "digest", r#"switch "Weekly digest""#),
    ("settings", "font", r#"slider "Font size""#),
    ("settings", "api tokens table", r#"table "API tokens""#),
    ("settings", "date picker", r#"button "Show date picker""#),
    // The login page.
    ("login", "email field", r#"textbox "Email""#),
    ("login", "password", r#"textbox "Password""#),
    ("login", "sign in button", r#"button "Sign in""#),
    ("login", "remember me checkbox", r#"checkbox "Remember me""#),
    ("login", "forgot password link", r#"link "Forgot password?""#),
    ("login", "create account", r#"link "Create an account""#),
    ("login", "terms", r#"link "Terms""#),
    ("login_error", "valid email address", r#"textbox "Email""#),
    ("login", "login button", r#"button "Sign in""#),
    // The docs pages.
    ("docs_intro", "search docs", r#"searchbox "Search docs""#),
    ("docs_intro", "dark mode", r#"button "Toggle dark mode""#),
    ("docs_intro", "toggle dark mode", r#"button "Toggle dark mode""#),
    ("docs_intro", "quick start", r#"link "Quick start""#),
    ("docs_intro", "next link", r#"link "Next: Installation »""#),
    ("docs_intro", "github", r#"link "GitHub""#),
    ("docs_intro", "edit this page", r#"link "Edit this page""#),
    ("docs_intro", "faq", r#"link "FAQ""#),
    ("docs_intro", "api link", r#"link "API""#),
    ("docs_intro", "installation", r#"link "Installation""#),
    ("docs_intro", "configuration", r#"link "Configuration""#),
    ("docs_intro", "on this page", r#"complementary "On this page""#),
    ("docs_intro", "main navigation", r#"navigation "Main""#),
    ("docs_install", "copy code", r#"button "Copy""#),
    ("docs_install", "copy button", r#"button "Copy""#),
    ("docs_install", "linux download", r#"link "example-linux.tar.gz""#),
    ("docs_install", "macos archive", r#"link "example-macos.tar.gz""#),
    ("docs_install", "building from source", r#"DisclosureTriangle "Building from source""#),
    ("docs_install", "previous", r#"link "« Previous: Introduction""#),
    ("docs_install", "release archives table", r#"table "Release archives""#),
    // The shop.
    ("shop_modal", "checkout", r#"link "Checkout""#),
    ("shop_modal", "continue shopping", r#"button "Continue shopping""#),
    ("shop_modal", "close dialog", r#"button "Close""#),
    ("shop_modal", "sort by dropdown", r#"combobox "Sort by""#),
    ("shop_modal", "price low to high", r#"combobox "Sort by""#),
    ("shop_modal", "cart", r#"link "Cart, 1 item""#),
    ("shop_modal", "search products", r#"searchbox "Search products""#),
    ("shop_modal", "search button", r#"button "Search""#),
    ("shop_closed", "add city walker to cart", r#"button "Add to cart" #2"#),
    ("shop_closed", "beach slide add to cart", r#"button "Add to cart" #3"#),
    ("shop_closed", "summit boot", r#"link "Summit Boot GTX""#),
    ("shop_closed", "added button", r#"button "Added""#),
    ("shop_closed", "add to cart", r#"button "Add to cart""#),
    ("shop_closed", "trail runner", r#"link "Trail Runner 2""#),
    ("shop_closed", "sort", r#"combobox "Sort by""#),
    ("shop_closed", "search field", r#"searchbox "Search products""#),
    ("shop_closed", "home link", r#"link "Shoe Shop home""#),
    // Menus, tabs and a checkout form.
    ("app_menu_combobox", "country dropdown", r#"combobox "Country""#),
    ("app_menu_combobox", "city combobox", r#"combobox "City""#),
    ("app_menu_combobox", "city suggestions", r#"listbox "City suggestions""#),
    ("app_menu_combobox", "berlin option", r#"option "Berlin""#),
    ("app_menu_combobox", "express delivery", r#"radio "Express (1 day) +€9""#),
    ("app_menu_combobox", "standard delivery radio", r#"radio "Standard (3–5 days)""#),
    ("app_menu_combobox", "save address toggle", r#"switch "Save this address""#),
    ("app_menu_combobox", "tip slider", r#"slider "Tip for the courier""#),
    ("app_menu_combobox", "gift wrap", r#"checkbox "Gift wrap \"deluxe\" edition with card""#),
    ("app_menu_combobox", "autosave", r#"menuitemcheckbox "Autosave""#),
    ("app_menu_combobox", "open menu item", r#"menuitem "Open…""#),
    ("app_menu_combobox", "payment tab", r#"tab "Payment""#),
    ("app_menu_combobox", "continue", r#"button "Continue""#),
    ("app_menu_combobox", "export as", r#"menuitem "Export as""#),
    ("app_menu_combobox", "address tab", r#"tab "Address""#),
    ("app_menu_combobox", "delivery options", r#"radio "Standard (3–5 days)""#),
    ("app_menu_combobox", "new file", r#"menuitem "New""#),
    ("app_menu_combobox", "edit menu", r#"menuitem "Edit""#),
];

/// The projected, ref-numbered tree of a fixture, as `axsnap snapshot --tree` builds it.
fn snapshot_tree(name: &str) -> Tree {
    let path = format!("{}/../../fixtures/trees/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rec = read_tree(&bytes, &Default::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut p = project(&rec.tree, &ProjectOptions::default());
    RefSpace::new().refresh(&TargetId(rec.target.id.clone()), &rec.tree, &mut p.tree);
    p.tree
}

/// The ref of the element an expectation names (`role "name"` or `role "name" #N`).
fn expected_ref(tree: &Tree, expected: &str) -> Option<Ref> {
    let (role, rest) = expected.split_once(' ')?;
    let (quoted, nth) = match rest.rsplit_once(" #") {
        Some((q, n)) if q.ends_with('"') => (q, n.parse::<usize>().ok()?),
        _ => (rest, 1),
    };
    let name: String = serde_json::from_str(quoted).ok()?;
    tree.preorder()
        .map(|(id, _)| tree.node(id))
        .filter(|n| n.role.as_str() == role && n.name == name && n.ref_id.is_some())
        .nth(nth - 1)
        .and_then(|n| n.ref_id)
}

#[test]
fn top_1_over_the_query_set() {
    assert!(CASES.len() >= 50);
    let mut trees: std::collections::HashMap<&str, Tree> = Default::default();
    let mut misses = Vec::new();
    for (fixture, query, expected) in CASES {
        let tree = trees.entry(fixture).or_insert_with(|| snapshot_tree(fixture));
        let want = expected_ref(tree, expected).unwrap_or_else(|| panic!("{fixture}: no element {expected}"));
        let hits = find(tree, query, 3);
        if hits.first().map(|h| h.r) != Some(want) {
            let got: Vec<String> = hits.iter().map(|h| format!("{} {} {:?}", h.r, h.role, h.name)).collect();
            misses.push(format!("{fixture}: {query:?} wants {expected} ({want}), got {got:?}"));
        }
    }
    let hits = CASES.len() - misses.len();
    let pct = 100.0 * hits as f64 / CASES.len() as f64;
    println!("find top-1: {hits}/{} = {pct:.1}%", CASES.len());
    for m in &misses {
        println!("  miss: {m}");
    }
    assert!(pct >= 95.0, "top-1 {pct:.1}% is under 95%:\n{}", misses.join("\n"));
}
