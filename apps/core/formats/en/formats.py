"""English dates as the product has always written them: day before month, no commas."""

WEEKDAY_DATE_FORMAT = "l j F"  # Thursday 19 March
WEEKDAY_DATETIME_FORMAT = "l j F, H:i"  # Thursday 19 March, 19:00
SHORT_WEEKDAY_DATE_FORMAT = "D j M"  # Thu 19 Mar
DAY_MONTH_FORMAT = "j F"  # 19 March
SHORT_DAY_MONTH_TIME_FORMAT = "j M H:i"  # 19 Mar 19:00
DAY_MONTH_YEAR_FORMAT = "j F Y"  # 19 March 2027
SHORT_DAY_MONTH_YEAR_FORMAT = "j M Y"  # 19 Mar 2027
SHORT_MONTH_FORMAT = "M"  # Mar
SHORT_MONTH_YEAR_FORMAT = "M Y"  # Mar 2027
