#!/usr/bin/python3
"""A GTK 3 window that finishes what a click starts a little later, as LibreOffice does (its
toolbar shows Bold pressed about 100 ms after the click's first events): "Start" sets the
status label to "working" at once, then to "step 2" and to "done" 80 ms apart."""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin=12)
status = Gtk.Label(label="Status: idle")
box.pack_start(status, False, False, 0)
start = Gtk.Button(label="Start")
box.pack_start(start, False, False, 0)


def later(steps):
    status.set_label(steps[0])
    if len(steps) > 1:
        GLib.timeout_add(80, lambda: later(steps[1:]) and False)


def on_start(_button):
    later(["Status: working", "Status: step 2", "Status: done"])


start.connect("clicked", on_start)
window = Gtk.Window(title="Late")
window.add(box)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
