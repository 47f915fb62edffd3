from django.contrib import admin

from .models import Entry, Step


class StepInline(admin.StackedInline):
    model = Step
    extra = 1


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "due_date", "due_time"]
    list_filter = ["kind"]
    search_fields = ["title"]
    inlines = [StepInline]
