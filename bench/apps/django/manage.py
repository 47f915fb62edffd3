#!/usr/bin/env python
"""The bench's Django admin app (scripts/bench's `django` workload): `manage.py migrate`,
`manage.py benchseed`, `manage.py runserver`, with the database at $AXSNAP_BENCH_DJANGO_DB."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchsite.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
