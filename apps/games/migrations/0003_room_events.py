"""A room's log entries are RoomEvents, as a night's are Events (the rules' moves are the
protocol's ``Action``: one name for one thing). The rows and the table's data stay."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_one_log_shape_and_presence"),
    ]

    operations = [
        migrations.RenameModel("Action", "RoomEvent"),
        migrations.AlterField(
            model_name="roomevent",
            name="room",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="games.room",
            ),
        ),
    ]
