// A source directly in ui/ belongs to no feature folder: the layering check must refuse it.
