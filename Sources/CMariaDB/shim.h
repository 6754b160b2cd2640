#include <mysql.h>
