# Numbered 0003 because another change takes 0002; it depends only on 0001_initial
# for now, and the merge that brings both in chains them.

from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_table_preferences'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='language',
            field=models.CharField(blank=True, choices=accounts.models.language_choices, default='', max_length=10, verbose_name='language'),
        ),
    ]
