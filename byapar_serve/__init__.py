"""``byapar serve``: the web table and the versioned JSON decision API (installed as
``byapar_serve``), for Byapar and for Businessman. ``docs/serve.md`` describes both.

- ``cli``: the command (``main(argv)``); ``app``: the FastAPI application and its error handling;
- ``api_info``, ``api_tables``: the /v1 routes; ``schemas``: their request and response bodies;
- ``tables``: tables, their locks, versions, idempotency keys and the filter on computer
  seats' offers to people, and the bounded store; ``state``: a table's state as JSON;
- ``legal``: the legal actions as listed, and action requests resolved; ``codec``: engine
  actions as JSON;
- ``decide``: one decision of any computer player; ``seat_view``: the environment view the
  learned players read; ``roster``: the players offered;
- ``businessman``: Businessman's tables, its state as one person seat sees it (its own
  Exchange hand, never another seat's), its actions by id or name, saves and decisions;
- ``saves``: saved games in, checked, and the table save file; ``body_limit``, ``limits``,
  ``errors``: the bounds and the typed errors;
- ``static/``: the page (plain HTML, CSS and JavaScript; ``messages.js``: what it says when
  something cannot be done) and the ``/docs`` page.
"""
