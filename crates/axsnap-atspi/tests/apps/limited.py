#!/usr/bin/python3
"""A GTK 3 form whose fields cannot hold everything asked of them: a "Code" entry that takes at
most 5 characters, and a "Level" spin button from 0 to 10. A fill beyond either limit leaves
something else in the field than was asked: the edit did not take as asked."""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

grid = Gtk.Grid(row_spacing=6, column_spacing=6, margin=12)
code = Gtk.Entry(max_length=5, text="ab")
code.get_accessible().set_name("Code")
grid.attach(Gtk.Label(label="Code"), 0, 0, 1, 1)
grid.attach(code, 1, 0, 1, 1)
window = Gtk.Window(title="Limits")
window.add(grid)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
