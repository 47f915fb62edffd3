#!/usr/bin/python3
"""A GTK 3 login form: a user name entry, a password entry (visibility off, so its accessible
role is "password text") holding a password, an insensitive "Sign in" button and a "Cancel"
button. (GTK reads such an entry's text back as bullets only: a label repeating the password
could not be told from any other label, and would be the app showing it on screen.)"""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

SECRET = "hunter2-opensesame"

grid = Gtk.Grid(row_spacing=6, column_spacing=6, margin=12)
grid.attach(Gtk.Label(label="User"), 0, 0, 1, 1)
user = Gtk.Entry(text="alice")
grid.attach(user, 1, 0, 1, 1)
grid.attach(Gtk.Label(label="Password"), 0, 1, 1, 1)
password = Gtk.Entry(text=SECRET, visibility=False)
password.get_accessible().set_name("Password")
grid.attach(password, 1, 1, 1, 1)
sign_in = Gtk.Button(label="Sign in", sensitive=False)
grid.attach(sign_in, 0, 3, 1, 1)
grid.attach(Gtk.Button(label="Cancel"), 1, 3, 1, 1)
window = Gtk.Window(title="Log in")
window.add(grid)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
