"""German dates: the day is an ordinal with its period ("19. März"), and a weekday before
it takes a comma ("Donnerstag, 19. März")."""

WEEKDAY_DATE_FORMAT = "l, j. F"  # Donnerstag, 19. März
WEEKDAY_DATETIME_FORMAT = "l, j. F, H:i"  # Donnerstag, 19. März, 19:00
SHORT_WEEKDAY_DATE_FORMAT = "D, j. M"  # Do, 19. Mär
DAY_MONTH_FORMAT = "j. F"  # 19. März
SHORT_DAY_MONTH_TIME_FORMAT = "j. M H:i"  # 19. Mär 19:00
DAY_MONTH_YEAR_FORMAT = "j. F Y"  # 19. März 2027
SHORT_DAY_MONTH_YEAR_FORMAT = "j. M Y"  # 19. Mär 2027
SHORT_MONTH_FORMAT = "M"  # Mär
SHORT_MONTH_YEAR_FORMAT = "M Y"  # Mär 2027
