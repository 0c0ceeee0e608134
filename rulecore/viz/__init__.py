"""Pure figure builders: data in, ``plotly.graph_objects.Figure`` out (no streamlit here).

One module per topic (``data``, ``terms``, ``rules``, ``screening``, ``sparse``, ``datumwise``,
``bilinear``, ``stability``); pages call them and only lay the figures out.
"""
