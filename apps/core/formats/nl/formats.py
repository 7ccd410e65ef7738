"""Dutch dates: day and month names in lower case, abbreviations too ("do 19 mrt")."""

WEEKDAY_DATE_FORMAT = "l j F"  # donderdag 19 maart
WEEKDAY_DATETIME_FORMAT = "l j F, H:i"  # donderdag 19 maart, 19:00
SHORT_WEEKDAY_DATE_FORMAT = "D j b"  # do 19 mrt
DAY_MONTH_FORMAT = "j F"  # 19 maart
SHORT_DAY_MONTH_TIME_FORMAT = "j b H:i"  # 19 mrt 19:00
DAY_MONTH_YEAR_FORMAT = "j F Y"  # 19 maart 2027
SHORT_DAY_MONTH_YEAR_FORMAT = "j b Y"  # 19 mrt 2027
SHORT_MONTH_FORMAT = "b"  # mrt
SHORT_MONTH_YEAR_FORMAT = "b Y"  # mrt 2027
