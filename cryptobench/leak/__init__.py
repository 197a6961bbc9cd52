"""Does an operation's time depend on its secret input? A dudect-style check for every provider.

classes.py says which two classes of input an operation is timed with, ttest.py holds the
statistics (Welch's t on raw, cropped and second-order data), check.py runs one check in batches
over the driver protocol's `leak` request (docs/leak.md)."""
