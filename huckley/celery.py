"""The Celery app. Its settings come from Django's, under the CELERY_ prefix.

With no REDIS_URL the tasks run eagerly in the calling process, so a new user needs
nothing but Python; with REDIS_URL they go to a real broker and worker.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huckley.settings")

app = Celery("huckley")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
