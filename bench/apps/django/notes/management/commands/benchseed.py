"""The run's starting data: the superuser (admin / secret123) and a few entries, one of them
with a 5,000-character body."""
import datetime

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand

from notes.models import Entry, Step

# 49 of the first and the last: 5,000 characters, ending on a sentence.
FIRST = "The figures for this quarter were collected from every team and checked twice by two of us in turn."
LAST = "All of them were then added up, compared with the last quarter, and sent on to the board on Fridays."


class Command(BaseCommand):
    help = "Creates the bench's superuser and its entries."

    def handle(self, *args, **options):
        User.objects.create_superuser("admin", "admin@example.com", "secret123")
        body = (FIRST + " ") * 49 + LAST
        rows = [
            ("Quarterly report", "task", datetime.date(2026, 11, 30), datetime.time(17, 0), body),
            ("Team sync", "meeting", datetime.date(2026, 12, 2), datetime.time(10, 0), "Weekly."),
            ("Renew certificates", "task", datetime.date(2026, 12, 15), datetime.time(9, 0), "Before they lapse."),
            ("Office move", "memo", datetime.date(2026, 12, 20), datetime.time(8, 0), "Boxes by Friday."),
            ("Budget review", "task", datetime.date(2026, 12, 5), datetime.time(14, 30), "With finance."),
        ]
        for title, kind, date, time, text in rows:
            e = Entry.objects.create(title=title, kind=kind, due_date=date, due_time=time, body=text)
            Step.objects.create(entry=e, text=f"Start {title.lower()}")
        assert len(Entry.objects.get(title="Quarterly report").body) == 5000
