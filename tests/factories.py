"""Model factories shared by the tests."""

import factory

from accounts.models import User

# Every factory-made user can log in with this password, unless the test passes
# its own: UserFactory(password="...").
PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")

    @factory.post_generation
    def password(user, create, extracted, **kwargs):
        user.set_password(extracted or PASSWORD)
        if create:
            user.save(update_fields=["password"])
