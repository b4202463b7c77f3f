"""Tables that do not move: a table's physical `number` beside its `rank` (every existing
table gets its rank, so nothing changes for a club that fixes no player), a roster
player's `fixed_table`, and a sitting's `table_notes`."""

from typing import Any

from django.db import migrations, models
from django.db.models import F, Q


def number_by_rank(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("tournaments", "Table")
    Table.objects.update(number=F("rank"))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_keep_apart"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="number",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="The physical table the players sit at (its card's number)."
            ),
            preserve_default=False,
        ),
        migrations.RunPython(number_by_rank, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(
                fields=("sitting", "number"), name="table_number_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=Q(number__gte=1), name="table_number_positive"
            ),
        ),
        migrations.AddField(
            model_name="sessionplayer",
            name="fixed_table",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="The physical table this player stays at all night; empty: they move.",
                null=True,
            ),
        ),
        migrations.AddConstraint(
            model_name="sessionplayer",
            constraint=models.CheckConstraint(
                condition=Q(fixed_table__isnull=True) | Q(fixed_table__gte=1),
                name="roster_fixed_table_positive",
            ),
        ),
        migrations.AddField(
            model_name="sitting",
            name="table_notes",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
