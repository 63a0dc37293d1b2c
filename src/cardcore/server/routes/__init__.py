"""The server's handlers, one module per part of the protocol (docs/server.md): each handler
is ``async def handler(ctx, request)``, ``ctx`` the app's shared ``Context``; ``app.py``
holds the route table."""
