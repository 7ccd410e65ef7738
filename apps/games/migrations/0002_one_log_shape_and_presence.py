from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0001_rooms")]

    operations = [
        migrations.RemoveField(model_name="seat", name="sockets"),
        migrations.RemoveField(model_name="seat", name="left_at"),
        migrations.AddField(
            model_name="seat",
            name="seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="bot_level",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.RenameField(model_name="action", old_name="payload", new_name="data"),
        migrations.AlterField(
            model_name="action",
            name="data",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RenameField(model_name="action", old_name="player", new_name="seat"),
        migrations.AlterField(
            model_name="action",
            name="seat",
            field=models.SmallIntegerField(blank=True, null=True),
        ),
        migrations.RenameField(model_name="action", old_name="created_at", new_name="created"),
        migrations.AlterField(
            model_name="action",
            name="kind",
            field=models.CharField(max_length=30),
        ),
        migrations.AlterField(
            model_name="action",
            name="action_id",
            field=models.CharField(blank=True, max_length=80, null=True),
        ),
    ]
