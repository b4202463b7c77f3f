"""The interactive docs: Swagger UI from the drf-spectacular-sidecar package (no CDN),
its start-up script served as a file and no inline style, so the site's content security
policy needs no exception."""

from __future__ import annotations

from drf_spectacular.views import SpectacularSwaggerSplitView


class SwaggerDocs(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"
