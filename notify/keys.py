"""VAPID key pairs and checks of the keys a browser's push subscription carries."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict base64url (padding optional); ValueError on anything else."""
    if not isinstance(text, str) or not text or len(text) > 200:
        raise ValueError("not base64url")
    raw = text.rstrip("=")
    if any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
           for c in raw):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))


def new_vapid_pair() -> tuple[str, str]:
    """(private, public): the private key as its raw 32 bytes, the public one as the
    uncompressed P-256 point browsers take as ``applicationServerKey``; base64url both."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)


def valid_p256dh(text: str) -> bool:
    """A browser's subscription key: an uncompressed point on P-256."""
    try:
        raw = b64url_decode(text)
        if len(raw) != 65 or raw[0] != 4:
            return False
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


def valid_auth(text: str) -> bool:
    try:
        return len(b64url_decode(text)) == 16
    except ValueError:
        return False
