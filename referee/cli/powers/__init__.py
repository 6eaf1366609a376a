"""Souls and powers: the souls studied, guessed, sold, traded and smashed, the Charges passed
between sides, the Major Arcana's powers, the status points, and how all of them are shown."""
