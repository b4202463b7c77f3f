"""What every layer may use: the error a user can fix (`errors.UserError`), running a
request again after a lost database connection (`retry`), queuing a task after commit
(`tasks`), backups and their restore (`backups`, `restore`), QR codes (`qr`), when two
names are the same name (`matching`), what a token in a URL may look like (`tokens`) and
the gzip rule shared by the stored and the rendered pages (`compress`).

The bottom layer with `engine` (docs/architecture.md): it imports no other app.
"""
