#!/usr/bin/python3
"""A GTK 3 window with a tree view of 100,000 rows in 3 columns: its accessible reports
300,000+ children (it manages its descendants), of which a screenful is on screen."""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

ROWS = 100_000

store = Gtk.ListStore(str, str, str)
for i in range(ROWS):
    store.append([f"row {i}", f"item {i * 7 % 1000}", f"note {i % 13}"])
view = Gtk.TreeView(model=store)
for n, title in enumerate(["Row", "Item", "Note"]):
    view.append_column(Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=n))
scroller = Gtk.ScrolledWindow()
scroller.add(view)
window = Gtk.Window(title="Big list")
window.set_default_size(600, 400)
window.add(scroller)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
