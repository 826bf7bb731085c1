"""The players' own pages: a plain web page per player, made for a phone, rendered from the
same act specs the app and the command line render (page.py), and the server that serves
them beside the players' view (server.py). What a player sees and may do is the session's
(`referee.session.desk`); nothing here decides a rule."""
