"""The public REST API: thin views over the same services, selectors and permission
functions as the pages, documented by drf-spectacular at /api/schema/ (docs/api.md)."""
