from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="Deadline",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=40)),
                ("key", models.CharField(max_length=200)),
                ("due_at", models.DateTimeField(db_index=True)),
                ("payload", models.JSONField(blank=True, default=dict)),
                ("created", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "indexes": [models.Index(fields=["scope"], name="deadline_scope")],
                "constraints": [
                    models.UniqueConstraint(fields=("scope", "key"), name="unique_deadline_key")
                ],
            },
        ),
    ]
