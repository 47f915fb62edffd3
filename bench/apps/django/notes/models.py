"""One model with a date, a time, a choice and a long text, and a related model edited inline."""
from django.db import models


class Entry(models.Model):
    KINDS = [("task", "Task"), ("meeting", "Meeting"), ("memo", "Memo")]
    title = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=KINDS, default="memo")
    due_date = models.DateField()
    due_time = models.TimeField()
    body = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "entries"

    def __str__(self):
        return self.title


class Step(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="steps")
    text = models.CharField("step", max_length=200)

    def __str__(self):
        return self.text
